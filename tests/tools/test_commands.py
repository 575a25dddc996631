#!/usr/bin/env python3
"""test_commands.py DEPS_SH SCRIPT... : the external commands the test
scripts run, held against what a fresh Debian machine has and what
tools/deps.sh installs.

A fresh machine is what the README asks for before `make check`: Debian's
Essential packages (what every Debian or Ubuntu system has), a C compiler,
make and pkg-config. Every other command a script runs must be installed by
`make deps` (TEST_DEPS in tools/deps.sh), and the script must also report
`skip NAME "... COMMAND ..."` for when it is missing (another system, no
root). Python modules the scripts import likewise: the standard library, the
project's own (python/NAME), or one of PY_DEPS in tools/deps.sh.

Prints one line per problem, "SCRIPT: COMMAND: why", and exits 1 when
there is one; with --list, prints "SCRIPT COMMAND" for every command found.
The shell is read by a small tokenizer, not a full parser: it knows
quotes, $( ), here-documents, case patterns, functions, and the wrappers
that run another command (env, timeout, xargs, sh -c, script -c, the
helpers of tests/cli/lib.sh)."""
import os
import re
import sys

# Debian's Essential packages (bookworm) and the README's prerequisites
# (gcc with binutils, make, pkg-config): on every machine `make check` runs.
BASE = {
    "coreutils": "basename cat chmod chown cksum comm cp cut date dd df dirname du env expr "
                 "false fold head id install ln ls md5sum mkdir mkfifo mknod mktemp mv nl nproc od "
                 "join paste printf pwd readlink realpath rm rmdir seq sha256sum shuf sleep sort split "
                 "stat sync tac tail tee test timeout touch tr true truncate tsort uniq wc yes base64",
    "dash, bash": "sh bash",
    "findutils": "find xargs",
    "grep": "grep egrep fgrep",
    "sed": "sed",
    "mawk": "awk",
    "diffutils": "cmp diff",
    "gzip, tar": "gzip gunzip tar",
    "util-linux": "flock getopt setpriv setsid unshare more",
    "bsdutils": "script logger",
    "debianutils": "which run-parts",
    "libc-bin": "getconf locale localedef iconv ldd ldconfig",
    "hostname": "hostname",
    "gcc": "cc gcc",
    "binutils": "ld ar nm objcopy objdump readelf strip",
    "make": "make",
    "pkg-config": "pkg-config",
    "the build": "blobc",
}
BASE_COMMANDS = {c for names in BASE.values() for c in names.split()}

# Shell words that are no command to look up.
BUILTINS = set(""": . [ alias bg break cd command continue echo eval exec exit export false fg
getopts hash jobs kill local printf pwd read readonly return set shift test times trap true
type ulimit umask unalias unset wait""".split()) | {"complete", "compgen"}  # bash's, for completion.sh
KEYWORDS = {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}",
            "esac", "in"}

# lib.sh helpers that run a command after N arguments of their own.
HELPERS = {"run": 0, "expect": 2, "expect_err": 3, "expect_stderr": 3}

OPS = re.compile(r";;|&&|\|\||>>|>&|<&|<<-|<<|[;&|()<>\n]")


def tokenize(text):
    """Words (quotes removed, $(...) kept as text) and operators, as
    (kind, text) pairs; here-document bodies are dropped."""
    out = []
    i, n = 0, len(text)
    word, in_word = [], False
    heredocs = []

    def arith_end(j):
        """Index just past the '))' closing the '$((' at text[j-3:j]."""
        depth = 2
        while j < n and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        return j

    def end_word():
        nonlocal word, in_word
        if in_word:
            out.append(("w", "".join(word)))
        word, in_word = [], False

    def subst(j):
        """Index just past the ')' closing the '$(' at text[j-2:j]."""
        depth = 1
        while j < n and depth:
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c == "'":
                j = text.find("'", j + 1) + 1 or n
                continue
            if c == '"':
                j = dquote(j + 1)[1]
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            j += 1
        return j

    def dquote(j):
        """The text of a double-quoted string from j, and the index past it."""
        s = []
        while j < n and text[j] != '"':
            if text[j] == "\\" and j + 1 < n:
                s.append(text[j + 1])
                j += 2
            elif text.startswith("$((", j):
                j = arith_end(j + 3)
                s.append("$[arith]")
            elif text.startswith("$(", j):
                k = subst(j + 2)
                s.append(text[j:k])
                j = k
            else:
                s.append(text[j])
                j += 1
        return "".join(s), j + 1

    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            if text[i + 1] != "\n":
                word.append(text[i + 1])
                in_word = True
            i += 2
        elif c == "'":
            k = text.find("'", i + 1)
            k = n if k < 0 else k
            word.append(text[i + 1:k].replace("$(", "$\x01("))
            in_word = True
            i = k + 1
        elif c == '"':
            s, i = dquote(i + 1)
            word.append(s)
            in_word = True
        elif text.startswith("$((", i):
            word.append("$[arith]")
            in_word = True
            i = arith_end(i + 3)
        elif text.startswith("$(", i):
            k = subst(i + 2)
            word.append(text[i:k])
            in_word = True
            i = k
        elif c == "#" and not in_word:
            while i < n and text[i] != "\n":
                i += 1
        elif c in " \t\r":
            end_word()
            i += 1
        elif c in ";&|()<>\n":
            end_word()
            op = OPS.match(text, i).group(0)
            if op in ("<<", "<<-"):
                # the delimiter: the next word, quoted or not
                m = re.compile(r"[ \t]*(['\"]?)([A-Za-z_0-9]+)\1").match(text, i + len(op))
                if m:
                    heredocs.append((m.group(2), op == "<<-"))
                    i = m.end()
                    continue
            out.append(("o", op))
            i += len(op)
            if op == "\n" and heredocs:
                for delim, strip in heredocs:
                    while i < n:
                        k = text.find("\n", i)
                        k = n if k < 0 else k
                        line = text[i:k]
                        i = k + 1
                        if (line.lstrip("\t") if strip else line) == delim:
                            break
                heredocs = []
        else:
            word.append(c)
            in_word = True
            i += 1
    end_word()
    return out


ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*=")
REDIRECT = {">", ">>", "<", ">&", "<&"}


def commands(text, functions):
    """(command, text of its arguments) for every simple command found,
    sh -c strings and $( ) included; `functions` collects the names the
    script defines."""
    toks = tokenize(text)
    found = []
    at_cmd, skip_args, case_depth, in_pattern, in_for = True, 0, 0, False, False
    i = 0
    while i < len(toks):
        kind, t = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else ("o", "\n")
        if kind == "w":
            for m in re.finditer(r"\$\((?!\()", t):
                found += commands(inner_subst(t, m.end()), functions)
        if kind == "o":
            if t in REDIRECT:
                i += 2  # its target
                continue
            if t == ")" and not in_pattern:
                at_cmd = False  # the end of a subshell: redirections may follow
                i += 1
                continue
            in_pattern = in_pattern and t != ")"
            if t in (";", "\n", "&", "&&", "||", "|", "(", ";;", ")"):
                in_for = False
                at_cmd = True
                if t == ";;":
                    in_pattern = True
            i += 1
            continue
        if in_for:
            i += 1
            continue
        if t == "case" and at_cmd:
            case_depth += 1
            while i < len(toks) and toks[i] != ("w", "in"):
                i += 1
            in_pattern = True
            i += 1
            continue
        if t == "esac" and at_cmd:
            case_depth -= 1
            in_pattern = at_cmd = False
            i += 1
            continue
        if in_pattern and case_depth:
            i += 1
            continue
        if not at_cmd:
            i += 1
            continue
        if t == "for":
            in_for = True
            i += 1
            continue
        if t in ("}", "fi", "done"):
            at_cmd = False  # the end of a compound command: redirections may follow
            i += 1
            continue
        if t in KEYWORDS or ASSIGN.match(t):
            i += 1
            continue
        if nxt == ("o", "(") and i + 2 < len(toks) and toks[i + 2] == ("o", ")"):
            functions.add(t)
            i += 3
            continue
        at_cmd = False
        args = []
        for k, w in toks[i + 1:]:
            if k == "o" and w in (";", "\n", "&&", "||", "|", ";;", ")", "&"):
                break
            if k == "w":
                args.append(w)
        found += wrapped(t, args, functions)
        i += 1
    return found


def inner_subst(t, j):
    depth = 1
    k = j
    while k < len(t) and depth:
        depth += {"(": 1, ")": -1}.get(t[k], 0)
        k += 1
    return t[j:k - 1]


def wrapped(cmd, args, functions):
    """The command and whatever command it runs in turn."""
    out = [(cmd, args)]
    rest = None
    if cmd in HELPERS:
        rest = args[HELPERS[cmd]:]
        out = []
    elif cmd in ("env", "nice", "nohup", "setsid", "exec", "command", "sudo"):
        if cmd == "command" and args[:1] in (["-v"], ["-V"]):
            return []
        rest = list(args)
        while rest and (rest[0].startswith("-") or ASSIGN.match(rest[0])):
            # env -u NAME, env -C DIR, nice -n N: an option with a value
            rest = rest[2:] if rest[0] in ("-u", "-C", "-n", "-S") else rest[1:]
    elif cmd == "timeout":
        rest = list(args)
        while rest and rest[0].startswith("-"):
            rest = rest[1:] if rest[0].startswith("--") or len(rest[0]) > 2 else rest[2:]
        rest = rest[1:]  # the duration
    elif cmd == "xargs":
        rest = list(args)
        while rest and rest[0].startswith("-"):
            rest = rest[1:] if len(rest[0]) > 2 or rest[0] in ("-0", "-r", "-t") else rest[2:]
    elif cmd == "strace":
        rest = list(args)
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if rest[0] in ("-o", "-e", "-p", "-s", "-u") else rest[1:]
    elif cmd in ("sh", "bash", "script") or cmd.endswith("/sh"):
        for j, a in enumerate(args):
            if re.fullmatch(r"-[a-z]*c", a) and j + 1 < len(args):
                return out + commands(args[j + 1].replace("$\x01(", "$("), functions)
    elif cmd == "find" and "-exec" in args:
        rest = args[args.index("-exec") + 1:]
    if rest:
        out += wrapped(rest[0], rest[1:], functions)
    return out


def deps(path):
    """TEST_DEPS and PY_DEPS of tools/deps.sh: {command: package}, {module: package}."""
    text = open(path).read()

    def pairs(name):
        m = re.search(name + r'="([^"]*)"', text)
        return dict(p.split(":", 1) for p in m.group(1).split()) if m else {}

    return pairs("TEST_DEPS"), pairs("PY_DEPS")


PY_IMPORT = re.compile(r"^\s*(?:import\s+([\w.]+(?:\s*,\s*[\w.]+)*)|from\s+([\w.]+)\s+import)", re.M)


def modules(text):
    mods = set()
    for a, b in PY_IMPORT.findall(text):
        for m in (a.split(",") if a else [b]):
            mods.add(m.strip().split(".")[0])
    return mods


def python_sources(text):
    """The Python the shell runs: python3 -c arguments, and scripts it names."""
    found = []
    for cmd, args in commands(text, set()):
        if cmd in ("python3", "python"):
            for j, a in enumerate(args):
                if a == "-c" and j + 1 < len(args):
                    found.append(args[j + 1])
                    break
    return found


def local_modules(paths):
    """The project's own Python packages (python/NAME/__init__.py) and the
    modules beside each Python file audited."""
    mods = set()
    if os.path.isdir("python"):
        mods |= {d for d in os.listdir("python") if os.path.isfile(f"python/{d}/__init__.py")}
    for p in paths:
        if p.endswith(".py"):
            d = os.path.dirname(p) or "."
            mods |= {f[:-3] for f in os.listdir(d) if f.endswith(".py")}
    return mods


def main(argv):
    listing = argv[1:2] == ["--list"]
    if listing:
        argv = argv[1:]
    test_deps, py_deps = deps(argv[1])
    stdlib = set(getattr(sys, "stdlib_module_names", ())) or {"sys", "os", "json", "socket", "time"}
    stdlib |= local_modules(argv[2:])
    problems = []
    # Files the scripts source by a plain path (". tests/fuzz/seeds.sh") are
    # run by them: audited too.
    paths = list(argv[2:])
    for path in argv[2:]:
        if not path.endswith(".py"):
            for src in re.findall(r"^\s*\.\s+([\w./-]+)\s*$", open(path).read(), re.M):
                if os.path.isfile(src) and src not in paths:
                    paths.append(src)
    argv = argv[:2] + paths
    # Functions of any script (lib.sh's are everyone's) are no commands.
    functions = set()
    for path in argv[2:]:
        if not path.endswith(".py"):
            commands(open(path).read(), functions)
    helper_uses = {}  # lib.sh function: the commands its body runs
    for path in argv[2:]:
        if path.endswith("/lib.sh"):
            for name, body in re.findall(r"^(\w+)\(\) \{\n(.*?)^\}", open(path).read(), re.M | re.S):
                helper_uses[name] = {c for c, _ in commands(body, set())}
    for path in argv[2:]:
        text = open(path).read()
        if path.endswith(".py"):
            pys = [text]
            found = []
        else:
            found = commands(text, set())
            pys = python_sources(text)
        names = {c for c, _ in found}
        if path.endswith("/lib.sh"):
            names -= {c for uses in helper_uses.values() for c in uses}
        for c in list(names):
            names |= helper_uses.get(c, set())
        names = sorted(names)
        skips = " ".join(re.findall(r"^\s*.*\bskip\b.*$", text, re.M))
        for c in names:
            if listing:
                print(path, c)
            if ("$" in c or "/" in c or c in BUILTINS or c in KEYWORDS or c in HELPERS
                    or c in functions or c in BASE_COMMANDS or c in ("pass", "fail", "skip")):
                continue
            if c not in test_deps:
                problems.append(f"{path}: {c}: not on a fresh Debian machine, and tools/deps.sh "
                                "does not install it (TEST_DEPS)")
            elif not re.search(r"\b" + re.escape(c) + r"\b", skips):
                problems.append(f"{path}: {c}: no `skip ... {c} ...` for when it is missing")
        for src in pys:
            for m in sorted(modules(src) - stdlib):
                if m not in py_deps:
                    problems.append(f"{path}: python module {m}: not in the standard library, "
                                    "and tools/deps.sh does not install it (PY_DEPS)")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
