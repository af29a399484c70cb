#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The dependency-closure check of tests/host/dep-closure: given the
# packages a mode of scripts/install-deps.sh installs and the files a run
# of that mode used (programs it executed, shared libraries it loaded,
# files copied into the initramfs), prove that each file comes from a
# package a fresh Debian 12 machine would have after that mode's install:
# the base of a minimal root (Priority required and Essential packages,
# plus apt: what `debootstrap --variant=minbase` installs), the mode's
# packages, and everything those depend on (Depends and Pre-Depends;
# install-deps.sh never installs Recommends). Owners come from dpkg's
# file lists, as `dpkg -S` would tell.
#
#   depclosure.py --mode NAME --packages FILE --files FILE [--ignore PREFIX]...
#
# FILE lists paths, one a line. For each program among them the check
# also covers what running it needs: the interpreter of a script (its #!
# line, through env) and the shared libraries of an ELF program (ldd).
#
# Prints one line per file that no package of the closure owns, naming the
# file and its owner (or that no package owns it), and exits 1 if there is
# any; otherwise prints a one-line summary and exits 0.

import argparse
import glob
import os
import re
import subprocess
import sys

MERGED = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def installed_packages():
    """name -> (priority, essential, [dependency groups], [provides])"""
    fmt = ("${Package}\t${db:Status-Abbrev}\t${Priority}\t${Essential}\t"
           "${Pre-Depends}\t${Depends}\t${Provides}\n")
    out = subprocess.run(["dpkg-query", "-W", "-f", fmt], check=True,
                         capture_output=True, text=True).stdout
    pkgs = {}
    for line in out.splitlines():
        name, status, prio, ess, pre, dep, prov = line.split("\t")
        # installed, possibly with triggers still pending
        if status[:2] not in ("ii", "iW", "it"):
            continue
        groups = []
        for field in (pre, dep):
            for grp in filter(None, (g.strip() for g in field.split(","))):
                groups.append([strip_name(a) for a in grp.split("|")])
        provides = [strip_name(p) for p in prov.split(",") if p.strip()]
        pkgs[name] = (prio, ess == "yes", groups, provides)
    return pkgs


def strip_name(dep):
    """'libc6:any (>= 2.34)' -> 'libc6'"""
    return re.split(r"[\s(:]", dep.strip(), maxsplit=1)[0]


def closure(pkgs, roots):
    providers = {}
    for name, (_, _, _, provides) in pkgs.items():
        providers.setdefault(name, set()).add(name)
        for p in provides:
            providers.setdefault(p, set()).add(name)
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        for real in providers.get(name, ()):
            if real in seen:
                continue
            seen.add(real)
            for grp in pkgs[real][2]:
                # every installed alternative may be the one a fresh
                # machine gets; any of them is in the closure
                for alt in grp:
                    todo.append(alt)
    return seen


def owners():
    """path -> set of packages, from dpkg's file lists"""
    own = {}
    for lst in glob.glob("/var/lib/dpkg/info/*.list"):
        pkg = os.path.basename(lst)[:-5].split(":")[0]
        with open(lst, errors="replace") as f:
            for path in f:
                own.setdefault(path.rstrip("\n"), set()).add(pkg)
    return own


def aliases(path):
    """the names a file has on a merged-/usr system"""
    out = [path]
    for top in MERGED:
        if path.startswith(top + "/"):
            out.append("/usr" + path)
        if path.startswith("/usr" + top + "/"):
            out.append(path[4:])
    return out


def owner_of(own, path):
    """the packages owning PATH: its real file first, then each name of
    the symlink chain that leads there (alternatives and the like)"""
    tried = []
    cands = [os.path.realpath(path), path]
    hops = 0
    p = path
    while os.path.islink(p) and hops < 16:
        p = os.path.join(os.path.dirname(p), os.readlink(p))
        cands.append(os.path.normpath(p))
        hops += 1
    for c in cands:
        for a in aliases(c):
            tried.append(a)
            if a in own:
                return own[a]
    return set()


def interpreter(path):
    """the program that runs the script PATH, or None"""
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    words = head[2:].split(b"\n")[0].decode(errors="replace").split()
    if not words:
        return None
    prog = words[0]
    if os.path.basename(prog) == "env":
        args = [w for w in words[1:] if not w.startswith("-")]
        if not args:
            return None
        for d in os.environ.get("PATH", "/usr/bin:/bin").split(":"):
            cand = os.path.join(d, args[0])
            if os.access(cand, os.X_OK):
                return cand
        return args[0]
    return prog


def libraries(path):
    """the shared libraries the ELF program PATH loads (ldd)"""
    try:
        with open(path, "rb") as f:
            if f.read(4) != b"\x7fELF":
                return []
    except OSError:
        return []
    r = subprocess.run(["ldd", path], capture_output=True, text=True)
    if r.returncode != 0:
        return []
    return re.findall(r"(/\S+)", r.stdout)


def source_of(path):
    """a compiled python module stands for its source, which dpkg owns:
    dir/__pycache__/mod.cpython-311.pyc -> dir/mod.py"""
    m = re.match(r"(.*)/__pycache__/([^/.]+)\.[^/]*\.pyc$", path)
    return f"{m.group(1)}/{m.group(2)}.py" if m else path


def expand(files):
    """FILES plus the interpreters and libraries they need to run"""
    out, todo = set(), [source_of(f) for f in files]
    while todo:
        f = todo.pop()
        if f in out:
            continue
        out.add(f)
        if os.path.isdir(f) or not os.access(f, os.X_OK):
            continue
        interp = interpreter(f)
        if interp:
            todo.append(interp)
        todo.extend(libraries(f))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True)
    ap.add_argument("--packages", required=True)
    ap.add_argument("--files", required=True)
    ap.add_argument("--ignore", action="append", default=[])
    args = ap.parse_args()

    pkgs = installed_packages()
    with open(args.packages) as f:
        mode_pkgs = [w for w in f.read().split() if w]
    missing = [p for p in mode_pkgs if p not in pkgs and
               not any(p in v[3] for v in pkgs.values())]
    if missing:
        print(f"{args.mode}: packages of the mode not installed here: "
              f"{' '.join(missing)} (run scripts/install-deps.sh {args.mode})")
        return 1
    base = [n for n, v in pkgs.items() if v[0] == "required" or v[1]]
    base.append("apt")
    have = closure(pkgs, base + mode_pkgs)

    own = owners()
    bad = 0
    nfiles = 0
    with open(args.files) as f:
        files = set(line.strip() for line in f if line.strip())
    files = [p for p in files if not any(p.startswith(i) for i in args.ignore)]
    for path in sorted(expand(files)):
        if any(path.startswith(i) for i in args.ignore):
            continue
        if not os.path.exists(path) or os.path.isdir(path):
            continue
        nfiles += 1
        o = owner_of(own, path)
        if not o:
            print(f"{args.mode}: {path}: no Debian package owns it")
            bad += 1
        elif not o & have:
            print(f"{args.mode}: {path}: from {', '.join(sorted(o))}, "
                  f"which install-deps.sh {args.mode} does not install "
                  f"(nor a minimal root, nor a dependency)")
            bad += 1
    if bad:
        return 1
    print(f"{args.mode}: {nfiles} files, all from the {len(have)} packages "
          f"of a minimal root plus install-deps.sh {args.mode}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
