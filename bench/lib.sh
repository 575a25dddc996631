# bench/lib.sh - what the bench scripts share, sourced with B (the bench
# build directory) and REPORT (the markdown file they append to) set:
# say appends a line to the report and prints it; median and cpu time a
# command with hyperfine; ratio and verdict compare two numbers.
say() { printf '%s\n' "$*" | tee -a "$REPORT"; }
# median NAME 'COMMAND' [OPTION]: hyperfine's median of a shell command, in
# seconds (the command must succeed); OPTION -N runs it without a shell,
# for commands of a few milliseconds, where the shell's own start-up that
# hyperfine subtracts is as long as the command.
median() {
    hyperfine --warmup 1 --runs "${RUNS:-10}" ${3:-} --export-json "$B/$1.json" "$2" >/dev/null 2>&1 ||
        { echo "bench: failed: $2" >&2; exit 1; }
    name=$1
    python3 -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$B/$name.json" 2>/dev/null ||
        sed -n 's/.*"median": *\([0-9.e-]*\).*/\1/p' "$B/$name.json" | head -1
}
# cpu NAME 'COMMAND': hyperfine's mean user + system seconds of a command
# run without a shell (commands of a few milliseconds).
cpu() {
    hyperfine -N --warmup 1 --runs "${RUNS:-15}" --export-json "$B/$1.json" "$2" >/dev/null 2>&1 ||
        { echo "bench: failed: $2" >&2; exit 1; }
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.4f" % (r["user"] + r["system"]))' "$B/$1.json"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v r="$1" -v g="$2" 'BEGIN { print (r + 0 >= g + 0) ? "met" : "missed" }'; }
