# The cache key, as a property: for random schemas (tests/tools/randgen)
# changed one element at a time (`randgen mutants`: a default's value, a
# default removed or added, a union's `= null`, a name, a type, an enum
# value or base, field or member order, @align, the root, a map's key or
# value type, a field made optional or not, a tag of a union tagged by a
# field, its tag field, default member or @open), a bake through
# the cache must give exactly what a fresh bake gives (the same bytes, or
# no output when the fresh bake fails). Each seed's cache first holds the
# unchanged schema's outputs, so a key that missed the change hands back
# the old blob. Each mutant is baked six ways into the one cache: a blob,
# --strip, --format raw, two Unity versions and length rules, and a blob
# whose schema is split over imported files. Changes no bake sees (a
# comment, the order of declarations, an unused type) must still hit.
# RANDGEN_SEEDS=N runs N seeds from RANDGEN_FIRST (default 1).
. "$(dirname "$0")/lib.sh"

BUILD=${BUILD:-build}
case $BUILD in /*) B=$BUILD ;; *) B=$TOP/$BUILD ;; esac
RG=$B/tools/randgen
SEEDS=${RANDGEN_SEEDS:-40}
FIRST=${RANDGEN_FIRST:-1}
LAST=$((FIRST + SEEDS - 1))
FAILDIR=$B/cache-key-fail
if [ ! -x "$RG" ]; then
    fail setup "$RG is not built"
    exit 0
fi

# flags V: the bake options of input kind V; ext V: its output's extension.
flags() {
    case $1 in
    s) echo "--strip" ;;
    r) echo "--format raw" ;;
    u) echo "--format unity --unity-version 7" ;;
    x) echo "--format unity --unity-version 8 --unity-length exact" ;;
    *) echo "" ;;
    esac
}
ext() {
    case $1 in r) echo bin ;; u | x) echo bytes ;; *) echo blob ;; esac
}
# input DIR V C|F: the data file of one mutant's bake.
input() {
    if [ "$2" = i ]; then echo "$1/imp/i-$3.yaml"; else echo "$1/$2-$3.yaml"; fi
}

: >"$T/summary"
s=$FIRST
while [ "$s" -le "$LAST" ]; do
    d=$T/seed-$s
    mkdir -p "$d"
    if ! "$RG" mutants "$s" "$d"; then
        fail "seed-$s.generate" "randgen exited $?"
        s=$((s + 1))
        continue
    fi
    C=$d/cache
    n=$(($(wc -l <"$d/list") - 1))
    for v in b s r u x i; do
        f=$(flags $v)
        cached="" fresh=$(input "$d/0" $v f)
        i=1
        while [ $i -le $n ]; do
            cached="$cached $(input "$d/$i" $v c)"
            fresh="$fresh $(input "$d/$i" $v f)"
            i=$((i + 1))
        done
        # shellcheck disable=SC2086
        {
            "$BLOBC" bake -q $f --cache "$C" "$(input "$d/0" $v c)" 2>"$d/$v.first"
            "$BLOBC" bake -q -v $f --cache "$C" $cached 2>"$d/$v.log"
            "$BLOBC" bake -q $f --no-cache $fresh
        } >/dev/null 2>&1
    done
    find "$d" -name '*-[cf].blob' -o -name '*-[cf].bin' -o -name '*-[cf].bytes' | xargs cksum >"$d/sums"
    cat "$d"/?.log >"$d/verbose"
    # One line per mutant and bake: seed idx kind input fresh cached hit
    # (a sum is "none" when the bake wrote nothing).
    awk -v seed="$s" -v dir="$d/" '
        FILENAME ~ /list$/ { kind[$1] = $2; next }
        FILENAME ~ /sums$/ {
            p = substr($3, length(dir) + 1)          # IDX/V-C.EXT or IDX/imp/i-C.EXT
            split(p, a, "/"); idx = a[1]; f = a[length(a)]
            v = substr(f, 1, 1); c = substr(f, 3, 1)
            sum[idx, v, c] = $1 "/" $2; next
        }
        / cached / { p = substr($1, length(dir) + 1); split(p, a, "/"); f = a[length(a)]
                     hit[a[1], substr(f, 1, 1)] = 1 }
        END {
            for (idx in kind) for (vi = 1; vi <= 6; vi++) {
                v = substr("bsruxi", vi, 1)
                fr = ((idx, v, "f") in sum) ? sum[idx, v, "f"] : "none"
                ca = ((idx, v, "c") in sum) ? sum[idx, v, "c"] : "none"
                o = ((0, v, "f") in sum) ? sum[0, v, "f"] : "none"
                print seed, idx, kind[idx], v, fr, ca, o, ((idx, v) in hit) ? 1 : 0
            }
        }' "$d/list" "$d/sums" "$d/verbose" >"$d/table"
    cat "$d/table" >>"$T/summary"
    # Every cached bake equals the fresh one.
    bad=$(awk '$2 != 0 && $5 != $6 { print "mutant " $2 " (" $3 "), bake " $4 ": fresh " $5 ", cached " $6 (($8) ? " (a hit)" : "") }' "$d/table" | head -3)
    keep=0
    if [ -z "$bad" ]; then pass "seed-$s.cached_is_fresh"; else
        fail "seed-$s.cached_is_fresh" "$(echo "$bad" | tr '\n' ';') (files: $FAILDIR/seed-$s)"
        keep=1
    fi
    # A change no bake sees keeps the key.
    bad=$(awk '$3 ~ /^neutral-/ && $7 != "none" && !$8 { print "mutant " $2 " (" $3 "), bake " $4 " missed" }' "$d/table" | head -3)
    if [ -z "$bad" ]; then pass "seed-$s.neutral_hits"; else
        fail "seed-$s.neutral_hits" "$(echo "$bad" | tr '\n' ';') (files: $FAILDIR/seed-$s)"
        keep=1
    fi
    if [ $keep = 1 ]; then
        mkdir -p "$FAILDIR"
        rm -rf "$FAILDIR/seed-$s"
        mv "$d" "$FAILDIR/seed-$s"
    fi
    rm -rf "$d"
    s=$((s + 1))
done

# Each class of change was seen to change an outcome somewhere, so the
# checks above covered it: a default of every kind changed or removed.
# Some classes change an outcome in only a few of the 40 seeds (a float
# default matters only where the data leaves its field out), so this is
# judged over seeds 1..40; a shorter run (make check-windows runs 10)
# counts these checks as skipped. The generator is the same program on
# every platform, so its coverage is the Linux run's.
for k in default-bool default-int default-f32 default-f64 default-enum default-string \
    default-removed null-removed field-renamed type-renamed fields-swapped field-type \
    value-changed member-renamed base-changed align-changed members-swapped root-changed \
    map-key-type map-value-type optional-added optional-removed union-tag-changed tag-field-renamed \
    union-default-changed union-open-toggled; do
    if [ "$FIRST" -gt 1 ] || [ "$LAST" -lt 40 ]; then
        skip "covers.$k" "coverage is judged over seeds 1..40; this run has $FIRST..$LAST"
        continue
    fi
    c=$(awk -v k="$k" '$3 == k && $5 != $7 { n++ } END { print n + 0 }' "$T/summary")
    if [ "$c" -gt 0 ]; then pass "covers.$k"; else
        fail "covers.$k" "no mutant of this kind changed a bake's outcome in seeds $FIRST..$LAST"
    fi
done
awk '$2 != 0 { n++; if ($5 != $7) ch++; if ($3 ~ /^neutral-/) ne++ }
     END { printf "# %d mutant bakes, %d with a changed outcome, %d neutral\n", n, ch, ne }' "$T/summary"
