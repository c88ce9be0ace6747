#!/usr/bin/perl
# decoy.pl PIDFILE [--zombie] [--trap] [ARG...]: a process the tests point botdesk at, to prove
# what botdesk does or never does to it. It publishes its pid in PIDFILE (by rename, after exec,
# so its command line is final by then) and lives at most 300 s. ARGs only sit on its command
# line (an X server's "-rfbunixpath SOCKET", say).
#   --trap    record every catchable signal in PIDFILE.signals and survive it, so a test can
#             tell "never signalled" from "signalled but lived"
#   --zombie  fork a child that exits at once and is never reaped (its pid in PIDFILE.child)
use strict;
use warnings;
use POSIX ();

my $pidfile = shift @ARGV;
my ($zombie, $trap) = (0, 0);
while (@ARGV && $ARGV[0] =~ /^--(zombie|trap)$/) {
    shift @ARGV;
    $zombie = 1 if $1 eq 'zombie';
    $trap = 1 if $1 eq 'trap';
}

sub publish {
    my ($path, $pid) = @_;
    open(my $f, '>', "$path.tmp") or die "decoy: $path.tmp: $!";
    print $f "$pid\n";
    close($f) or die "decoy: $path.tmp: $!";
    rename("$path.tmp", $path) or die "decoy: $path: $!";
}

if ($trap) {
    for my $sig (qw(TERM INT HUP CONT USR1 USR2 QUIT ALRM)) {
        $SIG{$sig} = sub {
            open(my $f, '>>', "$pidfile.signals") or return;
            print $f "$sig\n";
            close($f);
        };
    }
}
if ($zombie) {
    my $child = fork() // die "decoy: fork: $!";
    POSIX::_exit(0) if $child == 0;
    publish("$pidfile.child", $child);
}
publish($pidfile, $$);
my $end = time + 300;
while ((my $left = $end - time) > 0) {
    sleep($left);
}
