#!/usr/bin/env python3
"""check-deps.py SRCDIR [BUILDDIR]: exits 0 when everything that names botdesk's packages follows
scripts/deps/ (scripts/deps/README.md), else prints every breach and exits 1:
  - the Dockerfile and debian/control are what scripts/sync-deps writes;
  - every meson dependency() is satisfied by a package of build.txt or test.txt (and, where that
    package is installed here, the package really ships its NAME.pc);
  - scripts/setup installs all of build.txt, scripts/test all of build, test and image; no script
    under scripts/ installs a package by name that no list holds (on this host: an install
    inside a container, after `docker exec`, is the container's);
  - with BUILDDIR: every shared library the built programs link comes from a package of run.txt's
    image entries (or from the base every Debian system has)."""
import pathlib
import re
import shlex
import subprocess
import sys

src = pathlib.Path(sys.argv[1])
build = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
breaches = []
# In every Debian system, the slim image's included: no list names them.
BASE = {"libc6", "libgcc-s1"}
# meson's own: no package provides it.
BUILTIN_DEPS = {"threads"}


DPKG_INFO = pathlib.Path("/var/lib/dpkg/info")


def package_files(pkg):
    """The files dpkg installed for PKG, from its own list (a dpkg-query per name is slow), or
    None when PKG is not installed here."""
    for lst in (DPKG_INFO / f"{pkg}.list", *DPKG_INFO.glob(f"{pkg}:*.list")):
        if lst.is_file():
            return set(lst.read_text(encoding="utf-8", errors="replace").split("\n"))
    return None


def all_files():
    """{package: its files} for every installed package."""
    return {lst.name[:-len(".list")].split(":")[0]: set(lst.read_text(encoding="utf-8", errors="replace").split("\n"))
            for lst in DPKG_INFO.glob("*.list")}


def breach(msg):
    breaches.append(msg)


def read_list(purpose):
    """{package: [the words after it]} of scripts/deps/PURPOSE.txt."""
    out = {}
    for line in (src / "scripts/deps" / f"{purpose}.txt").read_text(encoding="utf-8").splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            out[words[0]] = words[1:]
    return out


lists = {p: read_list(p) for p in ("build", "run", "test", "image", "npm")}
listed = set().union(*lists.values())

# The generated files.
r = subprocess.run([sys.executable, str(src / "scripts/sync-deps"), "--check", "--root", str(src)],
                   capture_output=True, text=True)
if r.returncode != 0:
    breach(r.stderr.strip() or "scripts/sync-deps --check failed")

# meson's dependency() calls, against the packages that satisfy them.
provider = {}
for purpose in ("build", "test"):
    for pkg, names in lists[purpose].items():
        for name in names:
            provider[name] = pkg
for mb in sorted(src.rglob("meson.build")):
    rel = mb.relative_to(src)
    # Build trees inside the checkout are not sources.
    if any(part.startswith("build") or part.startswith(".") for part in rel.parts[:-1]):
        continue
    for name in re.findall(r"\bdependency\(\s*'([^']+)'", mb.read_text(encoding="utf-8")):
        if name in BUILTIN_DEPS:
            continue
        pkg = provider.get(name)
        if not pkg:
            breach(f"{rel}: dependency('{name}') is satisfied by no package of scripts/deps/build.txt "
                   f"or test.txt: add the package, followed by '{name}'")
            continue
        files = package_files(pkg)
        if files is not None and not any(f.endswith(f"/{name}.pc") for f in files):
            breach(f"scripts/deps: {pkg} is said to satisfy dependency('{name}'), but ships no {name}.pc")

# What the scripts install.


def apt_installs(path):
    """[(literal package words, [purposes read from scripts/deps/list])] per apt-get install."""
    text = re.sub(r"\\\n", " ", path.read_text(encoding="utf-8", errors="replace"))
    found = []
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        m = re.search(r"apt-get\s+install\b(.*)", line)
        # What a script installs inside a container (scripts/test-fresh's clean roots) is that
        # machine's, not this host's.
        if not m or re.search(r"docker\s+exec\b", line[:m.start()]):
            continue
        rest = m.group(1)
        purposes = [w for call in re.findall(r"scripts/deps/list\s+([^)]*)\)", rest) for w in call.split()]
        rest = re.sub(r"\$\([^)]*\)", " ", rest)
        rest = re.split(r"[;|&>]", rest)[0]
        try:
            words = shlex.split(rest)
        except ValueError:
            words = rest.split()
        pkgs = [w for w in words if re.fullmatch(r"[a-z0-9][a-z0-9+.-]+", w) and not w.startswith("-")]
        found.append((pkgs, purposes))
    return found


def installs(path):
    pkgs = set()
    for literal, purposes in apt_installs(path):
        pkgs |= set(literal)
        for p in purposes:
            pkgs |= set(lists[p.split(":")[0]])
    return pkgs


for script in sorted((src / "scripts").iterdir()):
    if not script.is_file():
        continue
    for literal, _ in apt_installs(script):
        stray = [p for p in literal if p not in listed]
        if stray:
            breach(f"scripts/{script.name} installs {' '.join(stray)}, which no list in scripts/deps/ holds")
for script, purposes in (("setup", ["build"]), ("test", ["build", "test", "image"])):
    want = set().union(*(lists[p] for p in purposes))
    missing = sorted(want - installs(src / "scripts" / script))
    if missing:
        breach(f"scripts/{script} does not install {' '.join(missing)} "
               f"(it must install scripts/deps/{{{','.join(purposes)}}}.txt: scripts/deps/list)")

def owner_of(files_of, soname, path):
    """The package that ships the library the loader found at PATH (dpkg knows /usr/lib where
    the loader may say /lib)."""
    names = {path, str(pathlib.Path(path).resolve()), "/usr" + path} if path else set()
    for pkg, files in files_of.items():
        if names & files:
            return pkg
    for pkg, files in files_of.items():
        if any(f.endswith("/" + soname) for f in files):
            return pkg
    return None


# The built programs' libraries, against the image's runtime packages.
if build:
    image = {p for p, where in lists["run"].items() if "image" in where}
    progs = sorted(p for p in build.glob("*/botdesk*") if p.is_file() and p.read_bytes()[:4] == b"\x7fELF")
    if not progs:
        breach(f"{build}: no built botdesk programs to check")
    files_of = all_files()
    for prog in progs:
        dump = subprocess.run(["objdump", "-p", str(prog)], capture_output=True, text=True, check=True).stdout
        # Where the loader finds each library (ldd also lists the libraries' own, not checked).
        ldd = subprocess.run(["ldd", str(prog)], capture_output=True, text=True).stdout
        paths = dict(re.findall(r"^\s*(\S+) => (/\S+)", ldd, re.M))
        for soname in re.findall(r"^\s*NEEDED\s+(\S+)", dump, re.M):
            if re.match(r"lib(a|ub|t|l|hwa)san\.", soname):  # a sanitizer build's runtime
                continue
            pkg = owner_of(files_of, soname, paths.get(soname))
            if not pkg:
                breach(f"{prog.name} links {soname}, which no installed package owns")
                continue
            if pkg not in image and pkg not in BASE:
                breach(f"{prog.name} links {soname} from {pkg}, which scripts/deps/run.txt does not "
                       f"list for the image: add '{pkg} image'")

for b in breaches:
    print("deps: " + b, file=sys.stderr)
sys.exit(1 if breaches else 0)
