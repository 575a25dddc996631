# Every command the test scripts run is on a fresh Debian machine (its
# Essential packages, a C compiler, make, pkg-config) or installed by
# `make deps` (tools/deps.sh), with a SKIP for when it is missing; every
# Python module they import is in the standard library or installed by
# `make deps`. tests/tools/test_commands.py reads the scripts.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
AUDIT=tests/tools/test_commands.py
if ! command -v python3 >/dev/null 2>&1; then
    skip commands_installed "python3 not installed (make deps installs it)"
    exit 0
fi

if python3 "$AUDIT" tools/deps.sh tests/run.sh tests/cli/*.sh tests/tools/*.sh tests/tools/*.py $(ls tests/python/*.py 2>/dev/null) \
    samples/pipeline/gen-ninja.sh >"$T/out" 2>&1; then
    pass commands_installed
else
    fail commands_installed "$(tr '\n' ';' <"$T/out")"
fi

# The audit itself: it finds what a script runs and what it guards.
cat >"$T/bad.sh" <<'EOF'
. "$(dirname "$0")/lib.sh"
up=$(curl -s "http://127.0.0.1/" | head -1)
if command -v nginx >/dev/null; then nginx -t; else skip nginx "nginx not installed"; fi
expect_err tool 0 "x" env LC_ALL=C timeout 5 xxhsum "$T/f"
(cd "$T" && ninja) >"$T/log" 2>&1
python3 -c 'import yaml, json'
cat <<EOT
strace -c ls
EOT
EOF
python3 "$AUDIT" tools/deps.sh "$T/bad.sh" >"$T/out" 2>&1
for want in "curl: no \`skip ... curl ...\`" "xxhsum: no \`skip" "ninja: no \`skip" \
    "python3: no \`skip"; do
    grep -qF -- "$want" "$T/out" && pass "audit_finds_${want%%:*}" || fail "audit_finds_${want%%:*}" "$(cat "$T/out")"
done
grep -q 'nginx\|strace\|python module\|: head\|: cat' "$T/out" && fail audit_no_false_finds "$(cat "$T/out")" ||
    pass audit_no_false_finds
sed 's/ninja)/ninja-tool)/' "$T/bad.sh" >"$T/bad2.sh"
python3 "$AUDIT" tools/deps.sh "$T/bad2.sh" >"$T/out" 2>&1
grep -qF 'ninja-tool: not on a fresh Debian machine' "$T/out" && pass audit_finds_unknown ||
    fail audit_finds_unknown "$(cat "$T/out")"
printf 'import frobnicate\n' >"$T/x.py"
python3 "$AUDIT" tools/deps.sh "$T/x.py" >"$T/out" 2>&1
grep -qF 'python module frobnicate' "$T/out" && pass audit_finds_module || fail audit_finds_module "$(cat "$T/out")"
