# The bad-data corpus through the command line: for every
# tests/bad/data/NAME.yaml and NAME.json, `blobc bake` must fail with the
# error lines in NAME.expect (every error it reports, in document order;
# the source lines and carets under them are not compared), exit 1 (2 when
# the schema file cannot be read), and leave no output file behind.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
n=0
for f in tests/bad/data/*.yaml tests/bad/data/*.json; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    name=$(basename "$f")
    want_rc=1
    case "$name" in missing_schema.*) want_rc=2 ;; esac
    run "$BLOBC" bake "$f" -o "$T/out.blob"
    got=$(grep -v '^ ' "$T/err")
    want=$(cat "${f%.*}.expect")
    if [ "$RC" -ne "$want_rc" ]; then
        fail "$name" "exit $RC, want $want_rc; stderr: $got"
    elif [ "$got" != "$want" ]; then
        fail "$name" "got '$got', want '$want'"
    elif [ -e "$T/out.blob" ]; then
        fail "$name" "an output file was left behind"
    else
        pass "$name"
    fi
    rm -f "$T/out.blob"
done
[ "$n" -ge 10 ] && pass corpus_size || fail corpus_size "only $n cases in tests/bad/data"
