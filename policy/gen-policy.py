#!/usr/bin/env python3
"""Turns policy/packages.tsv into policy.h (C tables) or a plain package list.

  gen-policy.py header packages.tsv policy.h
  gen-policy.py list packages.tsv apt [web|fonts] (one package per line, for scripts and the
                                    Dockerfile test: the desktop's set, or the web or fonts set)
"""
import sys

MANAGERS = ("apt", "dnf", "pacman")
OPTIONAL = ("web", "fonts")  # the optional sets, in policy_set order after the desktop's
RETIRED_DNF = {"xorg-x11-server-utils", "xorg-x11-utils"}


def load(path):
    programs, packages = [], {m: [] for m in MANAGERS}
    optional = {k: {m: [] for m in MANAGERS} for k in OPTIONAL}
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 5:
                sys.exit(f"{path}:{lineno}: expected 5 tab-separated columns, got {len(cols)}")
            kind, name, *pkgs = cols
            for p in pkgs + name.split("|"):
                if not p or not all(c.isalnum() or c in "+-._" for c in p):
                    sys.exit(f"{path}:{lineno}: bad name {p!r}")
            if kind == "program":
                programs.append((name.split("|"), dict(zip(MANAGERS, pkgs))))
            elif kind not in ("extra",) + OPTIONAL or name != "-":
                sys.exit(f"{path}:{lineno}: kind must be 'program', 'extra', 'web' or 'fonts' (all"
                         " but 'program' with name '-')")
            target = optional.get(kind, packages)
            for m, p in zip(MANAGERS, pkgs):
                if p not in target[m]:
                    target[m].append(p)
    bad = RETIRED_DNF & set(packages["dnf"])
    if bad:
        sys.exit(f"{path}: retired dnf names {sorted(bad)}: Fedora dropped them")
    if not programs:
        sys.exit(f"{path}: no programs")
    # The helper's "already installed" query and the runner's words take one set at a time; a
    # package in both would be installed by either and counted twice.
    for m in MANAGERS:
        seen = set(packages[m])
        for k in OPTIONAL:
            if seen & set(optional[k][m]) or not optional[k][m]:
                sys.exit(f"{path}: the {k} set ({m}) must be non-empty and apart from the others")
            seen |= set(optional[k][m])
    return programs, packages, optional


def c_str(s):
    return '"' + s + '"'


def tables(out, prefix, packages):
    for m in MANAGERS:
        out.append(f"static const char *const {prefix}_{m}[] = {{")
        out += [f"\t{c_str(p)}," for p in packages[m]]
        out += ["\tNULL,", "};", ""]


def header(programs, packages, optional):
    out = ["/* Generated from policy/packages.tsv by gen-policy.py. Do not edit. */",
           "#pragma once", "", "#include <stddef.h>", "",
           "enum policy_manager { POLICY_APT, POLICY_DNF, POLICY_PACMAN, POLICY_MANAGER_COUNT };", "",
           "struct policy_program {",
           "\tconst char *const names[4]; /* any one of them will do; NULL-terminated */",
           "\tconst char *const package[POLICY_MANAGER_COUNT];",
           "};", "",
           "static const struct policy_program policy_programs[] = {"]
    for names, pkgs in programs:
        ns = ", ".join(c_str(n) for n in names) + ", NULL"
        ps = ", ".join(c_str(pkgs[m]) for m in MANAGERS)
        out.append(f"\t{{{{{ns}}}, {{{ps}}}}},")
    out += ["};", "", f"#define POLICY_PROGRAM_COUNT {len(programs)}", ""]
    tables(out, "policy_packages", packages)
    tables(out, "policy_web_packages", optional["web"])
    tables(out, "policy_fonts_packages", optional["fonts"])
    out += ["/* The desktop's set: what `botdesk install` installs and `botdesk start` needs. */",
            "static const char *const *const policy_packages[POLICY_MANAGER_COUNT] = {",
            "\tpolicy_packages_apt, policy_packages_dnf, policy_packages_pacman,", "};", "",
            "/* The sets the helper installs, by what is asked for. */",
            "enum policy_set { POLICY_SET_DESKTOP, POLICY_SET_WEB, POLICY_SET_FONTS, POLICY_SET_COUNT };",
            "",
            "static const char *const *const policy_sets[POLICY_SET_COUNT][POLICY_MANAGER_COUNT] = {",
            "\t{policy_packages_apt, policy_packages_dnf, policy_packages_pacman},",
            "\t{policy_web_packages_apt, policy_web_packages_dnf, policy_web_packages_pacman},",
            "\t{policy_fonts_packages_apt, policy_fonts_packages_dnf, policy_fonts_packages_pacman},",
            "};", ""]
    return "\n".join(out)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "header":
        with open(sys.argv[3], "w", encoding="utf-8") as fh:
            fh.write(header(*load(sys.argv[2])))
    elif (len(sys.argv) in (4, 5) and sys.argv[1] == "list" and sys.argv[3] in MANAGERS
          and sys.argv[4:] in ([],) + tuple([k] for k in OPTIONAL)):
        _, packages, optional = load(sys.argv[2])
        print("\n".join((optional[sys.argv[4]] if sys.argv[4:] else packages)[sys.argv[3]]))
    else:
        sys.exit(__doc__)


main()
