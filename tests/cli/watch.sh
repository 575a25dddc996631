# blobc watch: the first bake, an edit, a change to an imported schema
# (every input of that schema baked again), a broken edit (the last good
# blob stays, the error is located) and its fix, a burst of saves, an
# editor's rename-over-save, SIGINT while idle and during a bake (no
# temporary file left), the notify line read by the C sample and the C#
# client (its hash the file's), no CPU spent while idle, an input
# rewritten in place during its bake, a schema or import made after
# the first bake that failed for want of it, the target of a linked input
# or import saved in its own directory, and a FIFO put in a file's place.
# Every wait polls for a condition and gives up after a bound: nothing
# here measures time (bench/watch.sh does).
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

if windows_build; then
    skip watch "the watcher's Windows side is tested by test_watch (ReadDirectoryChangesW under Wine)"
    exit 0
fi

# until SECONDS CMD... : polls CMD every 50 ms until it succeeds; fails
# after SECONDS.
until_ok() {
    limit=$(($1 * 20))
    shift
    i=0
    while [ "$i" -lt "$limit" ]; do
        "$@" 2>/dev/null && return 0
        sleep 0.05
        i=$((i + 1))
    done
    return 1
}
# The watch in the background, its stderr in $T/w.err; $WPID. A shell
# starts a background command with SIGINT ignored (and a signal ignored
# at the start stays ignored): env gives it back its default.
if env --default-signal=INT true 2>/dev/null; then SIGDFL="env --default-signal=INT"; else
    SIGDFL=""
fi
start_watch() {
    $SIGDFL "$BLOBC" watch "$@" 2>"$T/w.err" &
    WPID=$!
}
# gone PID : the process has ended (a zombie not yet waited for counts)
gone() {
    if [ -r "/proc/$1/stat" ]; then [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]; else
        ! kill -0 "$1" 2>/dev/null; fi
}
# Ends the watch with SIGINT (SIGTERM where env cannot give SIGINT back);
# it must be gone within 20 s. $WRC: its status.
stop_watch() {
    kill -"${SIG:-INT}" "$WPID" 2>/dev/null
    until_ok 20 gone "$WPID" || { fail stop_watch "still running 20 s after SIGINT"; kill -KILL "$WPID" 2>/dev/null; }
    wait "$WPID"
    WRC=$?
}
# bakes LABEL : the number of "INPUT: baked" lines for LABEL so far
bakes() { grep -c "^$1: baked" "$T/w.err"; }
baked_more() { [ "$(bakes "$1")" -gt "$2" ]; }
# fresh NAME INPUT : a plain bake of INPUT into $T/ref/NAME.blob
fresh() { "$BLOBC" bake "$2" -o "$T/ref/$1.blob" 2>>"$T/ref.err"; }
# poll_opt MODE : the option that makes the watch poll, for MODE poll
poll_opt() { [ "$1" != poll ] || echo "--poll 50"; }
# stray DIR : names in DIR other than the blobs (a temporary left behind)
stray() { ls -A "$1" | grep -v '\.blob$'; }

case $BUILD in /*) HOT=$BUILD/samples/hotreload ;; *) HOT=$TOP/$BUILD/samples/hotreload ;; esac
mkdir -p "$T/s" "$T/d" "$T/ref"
cp tests/data/import/*.schema "$T/s/"
sed 's|^\$schema: .*|$schema: ../s/level.schema|' samples/level.yaml >"$T/d/a.yaml"
sed 's|^\$schema: .*|$schema: ../s/level.schema|; s|^name: .*|name: "Bee"|' samples/level.yaml >"$T/d/b.yaml"
cd "$T" || exit 1

# ---- usage ----
expect_err notify_loopback_only 2 "loopback only" "$BLOBC" watch --notify 10.0.0.1:7777 d/a.yaml -o o/
expect_err notify_needs_port 2 "HOST:PORT" "$BLOBC" watch --notify localhost d/a.yaml -o o/
expect_err debounce_needs_ms 2 "--debounce needs milliseconds" "$BLOBC" watch --debounce soon d/a.yaml -o o/
expect_err poll_needs_ms 2 "--poll needs milliseconds" "$BLOBC" watch --poll 0 d/a.yaml -o o/
expect_err debounce_digits_only 2 "--debounce needs milliseconds" "$BLOBC" watch --debounce " 5" d/a.yaml -o o/
expect_err notify_port_digits_only 2 "HOST:PORT" "$BLOBC" watch --notify localhost:+7777 d/a.yaml -o o/
expect_err no_stdin 2 "not standard input" "$BLOBC" watch - -o o/x.blob
expect_err no_input 2 "no input file" "$BLOBC" watch -o o/
expect_err missing_input 2 "cannot watch 'd/none.yaml'" "$BLOBC" watch d/none.yaml -o o/

# ---- the loop ----
start_watch d/a.yaml d/b.yaml -o o/ --notify 127.0.0.1:0
if until_ok 30 sh -c '[ "$(grep -c ": baked" "$0")" -ge 2 ]' "$T/w.err"; then
    fresh a d/a.yaml && fresh b d/b.yaml
    same_file first_bake_a o/a.blob ref/a.blob
    same_file first_bake_b o/b.blob ref/b.blob
else
    fail first_bake "$(cat "$T/w.err")"
fi
PORT=$(sed -n 's/.*notifying on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/w.err")
[ -n "$PORT" ] && pass notify_port_named || fail notify_port_named "$(cat "$T/w.err")"

# the C sample keeps o/a.blob mapped: the current one at once, then the next
"$HOT" "127.0.0.1:$PORT" o/a.blob 2 >"$T/hot.out" 2>"$T/hot.err" &
HPID=$!
until_ok 20 grep -q '^generation' "$T/hot.out" &&
    grep -q '"Sunken Keep"' "$T/hot.out" && pass sample_maps_current ||
    fail sample_maps_current "$(cat "$T/hot.out" "$T/hot.err")"

# an edit in place
n=$(bakes d/a.yaml)
sed -i 's/^name: .*/name: "Edited"/' d/a.yaml
if until_ok 20 baked_more d/a.yaml "$n"; then
    fresh a d/a.yaml
    same_file edit_rebakes o/a.blob ref/a.blob
else
    fail edit_rebakes "$(cat "$T/w.err")"
fi
until_ok 20 gone "$HPID" && grep -q '"Edited"' "$T/hot.out" && pass sample_swaps ||
    fail sample_swaps "$(cat "$T/hot.out" "$T/hot.err")"
kill "$HPID" 2>/dev/null
wait "$HPID" 2>/dev/null

# a change to a schema that level.schema imports: both inputs again
na=$(bakes d/a.yaml) nb=$(bakes d/b.yaml)
sed -i 's/author: string = "unknown";/author: string = "nobody";/' s/rooms.schema
if until_ok 20 baked_more d/a.yaml "$na" && until_ok 20 baked_more d/b.yaml "$nb"; then
    fresh a d/a.yaml && fresh b d/b.yaml
    same_file import_change_a o/a.blob ref/a.blob
    same_file import_change_b o/b.blob ref/b.blob
    "$BLOBC" dump o/b.blob | grep -q nobody && pass import_change_took ||
        fail import_change_took "no 'nobody' in the new blob"
else
    fail import_change "$(cat "$T/w.err")"
fi

# a broken edit: the last good blob stays, the error names its place
cp o/a.blob good.blob
cp d/a.yaml a.good
lines=$(wc -l <"$T/w.err")
printf 'index: [unclosed\n' >>d/a.yaml
if until_ok 20 sh -c "tail -n +$((lines + 1)) '$T/w.err' | grep -q '^d/a.yaml:[0-9]*:[0-9]*: .*error'"; then
    pass broken_edit_located
    same_file broken_edit_keeps_blob o/a.blob good.blob
else
    fail broken_edit_located "$(tail -n +$((lines + 1)) "$T/w.err")"
fi
n=$(bakes d/a.yaml)
sed 's/^name: .*/name: "Fixed"/' a.good >d/a.yaml
if until_ok 20 baked_more d/a.yaml "$n"; then
    fresh a d/a.yaml
    same_file fix_rebakes o/a.blob ref/a.blob
else
    fail fix_rebakes "$(cat "$T/w.err")"
fi

# a burst of saves: the output is the last save's, baked far fewer times
n=$(bakes d/b.yaml)
for i in $(seq 1 20); do sed "s/^name: .*/name: \"Burst $i\"/" a.good >d/b.yaml; done
if until_ok 20 sh -c "'$BLOBC' dump o/b.blob | grep -q 'Burst 20'"; then
    fresh b d/b.yaml
    same_file burst_last_save o/b.blob ref/b.blob
    k=$(($(bakes d/b.yaml) - n))
    [ "$k" -lt 20 ] && pass burst_coalesced || fail burst_coalesced "$k bakes for 20 saves"
else
    fail burst_last_save "$(tail -5 "$T/w.err")"
fi

# an editor's save: a new file renamed over the name, twice (the watch
# follows the name, not the first file)
for k in 1 2; do
    n=$(bakes d/a.yaml)
    sed "s/^name: .*/name: \"Renamed $k\"/" a.good >d/.a.yaml.swp
    mv d/.a.yaml.swp d/a.yaml
    if until_ok 20 baked_more d/a.yaml "$n"; then
        fresh a d/a.yaml
        same_file "rename_over_save_$k" o/a.blob ref/a.blob
    else
        fail "rename_over_save_$k" "$(tail -5 "$T/w.err")"
    fi
done
# the schema saved the same way (and its directory's other files ignored)
n=$(bakes d/a.yaml)
sed 's/"nobody"/"anyone"/' s/rooms.schema >s/rooms.new && mv s/rooms.new s/rooms.schema
echo "unrelated" >s/notes.txt
if until_ok 20 baked_more d/a.yaml "$n"; then
    "$BLOBC" dump o/a.blob | grep -q anyone && pass schema_rename_over_save ||
        fail schema_rename_over_save "old schema in the blob"
else
    fail schema_rename_over_save "$(tail -5 "$T/w.err")"
fi

# the notify lines: the C# client reads one per output (the last of each),
# generations growing, hashes the files'
if ! command -v mcs >/dev/null 2>&1 || ! command -v mono >/dev/null 2>&1; then
    skip csharp_client "mcs and mono (packages mono-mcs, mono-runtime) are not installed"
elif mcs -warnaserror+ -out:"$T/np.exe" "$TOP/clients/unity/BlobcNotify.cs" "$TOP/tests/cs/NotifyPrint.cs" \
    >"$T/mcs.log" 2>&1; then
    if mono "$T/np.exe" 127.0.0.1 "$PORT" 2 >"$T/np.out" 2>"$T/np.err"; then
        awk '{ print $2 }' "$T/np.out" | sort >"$T/np.paths"
        printf 'o/a.blob\no/b.blob\n' >"$T/want.paths"
        same_file csharp_client_paths "$T/np.paths" "$T/want.paths"
        [ "$(awk '{ print $1 }' "$T/np.out" | sort -n | tr '\n' ' ')" = "$(awk '{ print $1 }' "$T/np.out" | tr '\n' ' ')" ] &&
            pass csharp_client_generation_order || fail csharp_client_generation_order "$(cat "$T/np.out")"
        if command -v xxhsum >/dev/null 2>&1; then
            bad=""
            while read -r gen path hash; do
                [ "$(xxhsum -H2 "$path" | cut -d' ' -f1)" = "$hash" ] || bad="$bad $path"
            done <"$T/np.out"
            [ -z "$bad" ] && pass notify_hash_is_files || fail notify_hash_is_files "$bad: $(cat "$T/np.out")"
        else
            skip notify_hash_is_files "xxhsum (package xxhash) is not installed"
        fi
    else
        fail csharp_client "$(cat "$T/np.err" "$T/np.out")"
    fi
else
    fail csharp_client_compiles "$(head -5 "$T/mcs.log")"
fi

# idle: no CPU time spent while nothing changes (a busy loop would spend
# the whole second)
if [ -r "/proc/$WPID/stat" ]; then
    cpu() { awk '{ print $14 + $15 }' "/proc/$WPID/stat"; }
    c0=$(cpu)
    sleep 1
    c1=$(cpu)
    [ $((c1 - c0)) -le 5 ] && pass idle_no_busy_loop || fail idle_no_busy_loop "$((c1 - c0)) ticks in 1 s"
else
    skip idle_no_busy_loop "no /proc/PID/stat here"
fi

# SIGINT while idle: it ends at once, as the signal would, leaving only the blobs
if [ -z "$SIGDFL" ]; then
    skip sigint_idle_ends "env --default-signal is not available (coreutils 8.31): SIGTERM instead"
    SIG=TERM
fi
stop_watch
want=130
[ "${SIG:-INT}" = TERM ] && want=143
[ "$WRC" -eq "$want" ] && pass sigint_idle_ends || fail sigint_idle_ends "exit $WRC"
s=$(stray o)
[ -z "$s" ] && pass sigint_idle_no_temp || fail sigint_idle_no_temp "$s"

# SIGINT during a bake of a big input: the process ends, no temporary file
# is left, and the output is a whole blob (the old one or the new one)
awk '/^boss:/ {
        for (i = 0; i < 100000; i++)
            printf "  - id: %d\n    name: \"Room %d\"\n    kind: stairs\n    center: {x: 1.5, y: 2.5, z: 3.5}\n    weights: [1, 2, 3, 4]\n    neighbors: [1, 2]\n", i + 100, i
    } { print }' d/a.yaml >d/big.yaml
for k in 1 2 3; do
    start_watch d/big.yaml -o big/
    if ! until_ok 60 grep -q '^d/big.yaml: baked' "$T/w.err"; then
        fail "sigint_in_bake_$k" "$(head -5 "$T/w.err")"
        stop_watch
        break
    fi
    cp big/big.blob big_old.blob
    sed -i "s/^name: .*/name: \"Big $k\"/" d/big.yaml
    fresh big d/big.yaml
    # the change is seen and the bake starts within a few debounce periods
    sleep 0.$((k * 2))
    stop_watch
    s=$(stray big)
    [ -z "$s" ] && pass "sigint_in_bake_no_temp_$k" || fail "sigint_in_bake_no_temp_$k" "$s"
    if cmp -s big/big.blob big_old.blob || cmp -s big/big.blob ref/big.blob; then
        pass "sigint_in_bake_whole_blob_$k"
    else
        fail "sigint_in_bake_whole_blob_$k" "neither the old blob nor the new one"
    fi
done

# an input rewritten in place while it is baked (a shell's >, an editor
# that truncates and writes): the watch bakes a copy of the text, so the
# rewrite cannot pull the bytes from under the bake (a mapped file cut
# short ends the process with SIGBUS); it keeps running and bakes the
# last version
cp d/big.yaml big.src
start_watch d/big.yaml -o big/ --debounce 0
if until_ok 60 grep -q '^d/big.yaml: baked' "$T/w.err"; then
    i=0
    while [ "$i" -lt 30 ] && ! gone "$WPID"; do
        i=$((i + 1))
        sed "s/^name: .*/name: \"Rewrite $i\"/" big.src >d/big.yaml
    done
    if gone "$WPID"; then
        wait "$WPID"
        fail in_place_rewrite_survives "ended with status $? after $i rewrites"
    else
        pass in_place_rewrite_survives
        fresh big d/big.yaml
        until_ok 60 cmp -s big/big.blob ref/big.blob && pass in_place_rewrite_last_version ||
            fail in_place_rewrite_last_version "$(tail -3 "$T/w.err")"
    fi
else
    fail in_place_rewrite "$(head -5 "$T/w.err")"
fi
stop_watch

# files not there at the first bake: a schema $schema names, in a
# directory not made yet, and a file a schema imports; each first bake
# fails, and making the file bakes again (with system events and polling);
# so does finishing an import a bake found half written
for mode in events poll; do
    mkdir -p "late_$mode/d" "late_$mode/s3"
    sed 's|^\$schema: .*|$schema: ../s2/level.schema|' a.good >"late_$mode/d/m.yaml"
    sed 's|^\$schema: .*|$schema: ../s3/level.schema|' a.good >"late_$mode/d/i.yaml"
    cp s/level.schema s/common.schema "late_$mode/s3/"
    # shellcheck disable=SC2046
    start_watch $(poll_opt "$mode") "late_$mode/d/m.yaml" "late_$mode/d/i.yaml" -o "late_$mode/o/"
    if until_ok 30 grep -q "cannot import" "$T/w.err" && until_ok 30 grep -q "cannot load the schema" "$T/w.err"; then
        # s2's import is seen half written (empty): that bake fails on
        # the schema, and finishing the import bakes again
        mkdir "late_$mode/s2"
        : >"late_$mode/s2/rooms.schema"
        cp s/level.schema s/common.schema "late_$mode/s2/"
        cp s/rooms.schema "late_$mode/s3/"
        until_ok 20 grep -q "s2/level.schema:.*unknown type" "$T/w.err" ||
            fail "late_import_half_written_$mode" "$(tail -5 "$T/w.err")"
        cp s/rooms.schema "late_$mode/s2/"
        for x in m i; do
            if until_ok 20 grep -q "^late_$mode/d/$x.yaml: baked" "$T/w.err"; then
                fresh "late_$x" "late_$mode/d/$x.yaml"
                same_file "late_${x}_${mode}" "late_$mode/o/$x.blob" "ref/late_$x.blob"
            else
                fail "late_${x}_${mode}" "$(tail -5 "$T/w.err")"
            fi
        done
    else
        fail "late_first_bake_fails_$mode" "$(cat "$T/w.err")"
    fi
    stop_watch
done

# ---- attacks on the watch's own surfaces ----
# The notify server, from clients written in Python: ones that connect and
# go again and again (their sockets must not pile up), many that stay and
# never read but send junk and a line of a megabyte (the server never
# reads a line, holds at most 64 clients, and goes on baking), and a
# process with its descriptors used up (a connection it cannot take must
# not make it spin).
if ! command -v python3 >/dev/null 2>&1; then
    skip notify_attacks "python3 is not installed (make deps installs it)"
elif [ ! -d /proc/self/fd ]; then
    skip notify_attacks "no /proc/PID/fd here to count the server's sockets"
else
    cat >"$T/clients.py" <<'EOF'
# clients.py PORT MODE N RELEASE: N clients that connect and go (churn),
# or that stay without reading, sending junk and a megabyte line (hold),
# until the file RELEASE exists (30 s at most); or one that reads its
# first line and prints it (one).
import os, socket, sys, time
port, mode, n, release = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
held = []
for i in range(n):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
    except OSError:
        if mode != "hold":
            raise
        break  # the server's backlog is full: enough are waiting
    if mode == "churn":
        s.close()
    elif mode == "one":
        print(s.makefile().readline().strip(), flush=True)
    else:
        s.setblocking(False)
        try:
            s.send(b"\x00junk\xff\n" * 1000 + b"x" * (1 << 20))
        except OSError:
            pass
        held.append(s)
print("ready", flush=True)
end = time.time() + 30
while mode == "hold" and not os.path.exists(release) and time.time() < end:
    time.sleep(0.05)
EOF
    clients() { python3 "$T/clients.py" "$PORT2" "$@" "$T/release"; }
    fds() { ls "/proc/$WPID/fd" | wc -l; }
    # running KEY: how many of 20 looks over a second find the watch
    # running (or waiting to run) rather than asleep
    running() {
        r=0
        for i in $(seq 1 20); do
            [ "$(awk '{ print $3 }' "/proc/$WPID/stat")" = R ] && r=$((r + 1))
            sleep 0.05
        done
        echo "$r"
    }
    mkdir -p atk
    sed 's|^\$schema: .*|$schema: ../s/level.schema|' a.good >atk/n.yaml
    start_watch atk/n.yaml -o atk/o/ --notify 127.0.0.1:0
    if until_ok 30 grep -q '^atk/n.yaml: baked' "$T/w.err"; then
        PORT2=$(sed -n 's/.*notifying on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/w.err")
        base=$(fds)
        clients churn 300 >/dev/null 2>"$T/py.err"
        first=$(clients one 1 2>>"$T/py.err" | head -1)
        case $first in "1 atk/o/n.blob "*) pass notify_after_churn ;; *) fail notify_after_churn "'$first' $(cat "$T/py.err")" ;; esac
        n=$(fds)
        [ "$n" -le $((base + 2)) ] && pass notify_churn_no_leak || fail notify_churn_no_leak "$n descriptors, $base before 300 clients came and went"
        rm -f "$T/release"
        clients hold 150 >"$T/hold.out" 2>>"$T/py.err" &
        HOLD=$!
        if until_ok 30 grep -q ready "$T/hold.out"; then
            n=$(fds)
            [ "$n" -le $((base + 64)) ] && pass notify_clients_bounded || fail notify_clients_bounded "$n descriptors for 150 clients"
            k=$(bakes atk/n.yaml)
            sed -i 's/^name: .*/name: "Held"/' atk/n.yaml
            until_ok 20 baked_more atk/n.yaml "$k" && pass notify_held_clients_bake_goes_on ||
                fail notify_held_clients_bake_goes_on "$(tail -3 "$T/w.err")"
        else
            fail notify_clients_bounded "$(cat "$T/hold.out" "$T/py.err")"
        fi
        touch "$T/release"
        wait "$HOLD"
        first=$(clients one 1 2>>"$T/py.err" | head -1)
        case $first in "2 atk/o/n.blob "*) pass notify_after_held ;; *) fail notify_after_held "'$first' $(cat "$T/py.err")" ;; esac
        # no other address of this machine reaches the server
        ip=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -m1 '^[0-9.]*$' | grep -v '^127\.')
        if [ -n "$ip" ]; then
            python3 -c "import socket, sys
try:
    socket.create_connection(('$ip', $PORT2), timeout=5); sys.exit(1)
except ConnectionRefusedError:
    pass" && pass notify_not_on_other_address || fail notify_not_on_other_address "connected to $ip:$PORT2"
        else
            skip notify_not_on_other_address "this machine has no address but loopback"
        fi
        # the port taken: a second watch says so
        expect_err notify_port_in_use 2 "in use" "$BLOBC" watch --notify "127.0.0.1:$PORT2" atk/n.yaml -o atk/o2/
    else
        fail notify_attacks "$(cat "$T/w.err")"
    fi
    stop_watch
    expect_err notify_any_address_refused 2 "loopback only" "$BLOBC" watch --notify 0.0.0.0:7777 atk/n.yaml -o atk/o/
    # no descriptor left for a waiting connection: the watch sleeps all
    # the same
    ( ulimit -n 24 && exec $SIGDFL "$BLOBC" watch atk/n.yaml -o atk/o/ --notify 127.0.0.1:0 ) 2>"$T/w.err" &
    WPID=$!
    if until_ok 30 grep -q '^atk/n.yaml: baked' "$T/w.err"; then
        PORT2=$(sed -n 's/.*notifying on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/w.err")
        rm -f "$T/release"
        clients hold 40 >"$T/hold.out" 2>>"$T/py.err" &
        HOLD=$!
        until_ok 30 grep -q ready "$T/hold.out"
        r=$(running)
        [ "$r" -le 4 ] && pass notify_no_descriptors_no_spin || fail notify_no_descriptors_no_spin "running at $r of 20 looks"
        touch "$T/release"
        wait "$HOLD"
    else
        fail notify_no_descriptors_no_spin "$(cat "$T/w.err")"
    fi
    stop_watch
fi

# Files under the watch: an input removed and made again, made a
# directory, made a symbolic link to a file elsewhere; the schema's
# directory renamed away and another made in its place.
mkdir -p fa/d fa/s fa/elsewhere
cp s/*.schema fa/s/
sed 's|^\$schema: .*|$schema: ../s/level.schema|' a.good >fa/d/f.yaml
start_watch fa/d/f.yaml -o fa/o/
# changed NAME FILE: FILE's bakes so far in $n; waits for one more, and
# compares the output with a fresh bake
changed() {
    if until_ok 20 baked_more fa/d/f.yaml "$n"; then
        fresh fa "$2"
        same_file "$1" fa/o/f.blob ref/fa.blob
    else
        fail "$1" "$(tail -5 "$T/w.err")"
    fi
}
if until_ok 30 grep -q '^fa/d/f.yaml: baked' "$T/w.err"; then
    n=$(bakes fa/d/f.yaml)
    rm fa/d/f.yaml
    until_ok 20 grep -q "cannot open 'fa/d/f.yaml'" "$T/w.err" && pass input_removed_error ||
        fail input_removed_error "$(tail -3 "$T/w.err")"
    sed 's/^name: .*/name: "Back"/' a.good | sed 's|^\$schema: .*|$schema: ../s/level.schema|' >fa/d/f.yaml
    changed input_made_again fa/d/f.yaml
    n=$(bakes fa/d/f.yaml)
    lines=$(wc -l <"$T/w.err")
    rm fa/d/f.yaml
    mkdir fa/d/f.yaml
    if until_ok 20 sh -c "tail -n +$((lines + 1)) '$T/w.err' | grep -q \"^fa/d/f.yaml: error: cannot read 'fa/d/f.yaml'\""; then
        sleep 0.3
        ! gone "$WPID" && pass input_made_directory || fail input_made_directory "the watch ended"
    else
        fail input_made_directory "$(tail -3 "$T/w.err")"
    fi
    rmdir fa/d/f.yaml
    sed 's/^name: .*/name: "Linked"/' a.good | sed 's|^\$schema: .*|$schema: ../s/level.schema|' >fa/elsewhere/t.yaml
    n=$(bakes fa/d/f.yaml)
    ln -s ../elsewhere/t.yaml fa/d/f.yaml
    changed input_made_symlink fa/d/f.yaml
    n=$(bakes fa/d/f.yaml)
    mv fa/s fa/s.old
    mkdir fa/s
    cp fa/s.old/*.schema fa/s/
    sed -i 's/author: string = "[a-z]*";/author: string = "moved";/' fa/s/rooms.schema
    if until_ok 20 sh -c "'$BLOBC' dump fa/o/f.blob | grep -q moved"; then
        pass schema_directory_replaced
    else
        fail schema_directory_replaced "$(tail -3 "$T/w.err")"
    fi
else
    fail files_attacks "$(cat "$T/w.err")"
fi
stop_watch

# An input and an import that are symbolic links to files in other
# directories: a save of either target (in place, or renamed over it)
# bakes again, though no watched directory of the links changed.
mkdir -p sl/a sl/b sl/s sl/t
cp s/*.schema sl/s/
mv sl/s/rooms.schema sl/t/rooms.schema
ln -s ../t/rooms.schema sl/s/rooms.schema
sed 's|^\$schema: .*|$schema: ../s/level.schema|' a.good >sl/b/real.yaml
ln -s ../b/real.yaml sl/a/in.yaml
start_watch sl/a/in.yaml -o sl/o/
if until_ok 30 grep -q '^sl/a/in.yaml: baked' "$T/w.err"; then
    n=$(bakes sl/a/in.yaml)
    sed -i 's/^name: .*/name: "Through the link"/' sl/b/real.yaml
    if until_ok 20 baked_more sl/a/in.yaml "$n"; then
        fresh sl sl/a/in.yaml
        same_file link_target_input_edit sl/o/in.blob ref/sl.blob
    else
        fail link_target_input_edit "$(tail -3 "$T/w.err")"
    fi
    n=$(bakes sl/a/in.yaml)
    sed 's/author: string = "[a-z]*";/author: string = "linked";/' sl/t/rooms.schema >sl/t/rooms.new
    mv sl/t/rooms.new sl/t/rooms.schema
    if until_ok 20 baked_more sl/a/in.yaml "$n" && until_ok 20 sh -c "'$BLOBC' dump sl/o/in.blob | grep -q linked"; then
        fresh sl sl/a/in.yaml
        same_file link_target_import_edit sl/o/in.blob ref/sl.blob
    else
        fail link_target_import_edit "$(tail -3 "$T/w.err")"
    fi
else
    fail link_target "$(cat "$T/w.err")"
fi
stop_watch

# A FIFO put in the place of an input, then of an import: that job fails
# at once, naming the file, never waiting for a writer; the other input
# is still baked on its saves, and the job bakes again once its file is a
# regular file again.
if mkfifo fifo_probe 2>/dev/null; then
    rm -f fifo_probe
    mkdir -p ff/d ff/s ff/s2
    cp s/*.schema ff/s/
    cp s/*.schema ff/s2/
    sed 's|^\$schema: .*|$schema: ../s/level.schema|' a.good >ff/d/p.yaml
    sed 's|^\$schema: .*|$schema: ../s2/level.schema|' a.good >ff/d/q.yaml
    start_watch ff/d/p.yaml ff/d/q.yaml -o ff/o/
    # fifo_step NAME ERROR : after the change just made, the error for p
    # comes, q still bakes on a save, and the watch runs on
    fifo_step() {
        if until_ok 20 sh -c "tail -n +$((lines + 1)) '$T/w.err' | grep -qF \"$2\""; then
            pass "$1"
        else
            fail "$1" "$(tail -n +$((lines + 1)) "$T/w.err" | head -5)"
        fi
        k=$(bakes ff/d/q.yaml)
        sed "s/^name: .*/name: \"$1\"/" a.good | sed 's|^\$schema: .*|$schema: ../s2/level.schema|' >ff/d/q.yaml
        if until_ok 20 baked_more ff/d/q.yaml "$k"; then
            fresh ffq ff/d/q.yaml
            same_file "${1}_others_baked" ff/o/q.blob ref/ffq.blob
        else
            fail "${1}_others_baked" "$(tail -3 "$T/w.err")"
        fi
    }
    # back NAME : p made a regular file again is baked again
    back() {
        if until_ok 20 baked_more ff/d/p.yaml "$n"; then
            fresh ffp ff/d/p.yaml
            same_file "$1" ff/o/p.blob ref/ffp.blob
        else
            fail "$1" "$(tail -3 "$T/w.err")"
        fi
    }
    if until_ok 30 sh -c '[ "$(grep -c "^ff/d/.\.yaml: baked" "$0")" -ge 2 ]' "$T/w.err"; then
        n=$(bakes ff/d/p.yaml)
        lines=$(wc -l <"$T/w.err")
        rm ff/d/p.yaml
        mkfifo ff/d/p.yaml
        fifo_step fifo_input_refused "ff/d/p.yaml: error: cannot read 'ff/d/p.yaml': it is a FIFO; expected a regular file"
        rm ff/d/p.yaml
        sed 's/^name: .*/name: "Regular again"/' a.good | sed 's|^\$schema: .*|$schema: ../s/level.schema|' >ff/d/p.yaml
        back fifo_input_regular_again
        n=$(bakes ff/d/p.yaml)
        lines=$(wc -l <"$T/w.err")
        mv ff/s/rooms.schema ff/rooms.keep
        mkfifo ff/s/rooms.schema
        fifo_step fifo_import_refused "cannot read 'ff/d/../s/rooms.schema': it is a FIFO; expected a regular file"
        rm ff/s/rooms.schema
        mv ff/rooms.keep ff/s/rooms.schema
        back fifo_import_regular_again
    else
        fail fifo_first_bake "$(cat "$T/w.err")"
    fi
    stop_watch
else
    skip fifo_in_place "mkfifo is not allowed here"
fi

# Outputs written into watched directories (the input's, and the
# schema's, which is below it): no bake sets off another, with system
# events or polling.
for mode in events poll; do
    mkdir -p "ow_$mode/s"
    cp s/*.schema "ow_$mode/s/"
    sed 's|^\$schema: .*|$schema: s/level.schema|' a.good >"ow_$mode/a.yaml"
    sed 's|^\$schema: .*|$schema: s/level.schema|' a.good >"ow_$mode/b.yaml"
    # shellcheck disable=SC2046
    start_watch $(poll_opt "$mode") "ow_$mode/a.yaml" -o "ow_$mode/s/" "ow_$mode/b.yaml"
    if until_ok 30 grep -q "^ow_$mode/b.yaml: baked" "$T/w.err"; then
        sleep 1.5
        k=$(grep -c ": baked" "$T/w.err")
        [ "$k" -eq 2 ] && pass "outputs_in_watched_dirs_$mode" || fail "outputs_in_watched_dirs_$mode" "$k bakes of 2 inputs left alone"
    else
        fail "outputs_in_watched_dirs_$mode" "$(cat "$T/w.err")"
    fi
    stop_watch
done

# A burst of a thousand saves over forty inputs: every output ends as a
# fresh bake of the last save, and no save sets off more than one bake
# (how many saves one bake takes in depends on how fast they come).
mkdir -p hb
for i in $(seq 1 40); do sed 's|^\$schema: .*|$schema: ../s/level.schema|' a.good >"hb/h$i.yaml"; done
start_watch hb/*.yaml -o hb/o/
if until_ok 60 sh -c '[ "$(grep -c ": baked" "$0")" -ge 40 ]' "$T/w.err"; then
    # written by the shell itself (no process per save): the whole burst
    # takes a moment
    pre=$(sed -n '1,/^name:/p' hb/h1.yaml | sed '$d')
    post=$(sed '1,/^name:/d' hb/h1.yaml)
    for k in $(seq 1 25); do
        for i in $(seq 1 40); do
            printf '%s\nname: "Burst %s of %s"\n%s\n' "$pre" "$k" "$i" "$post" >"hb/h$i.yaml"
        done
    done
    ok=1
    for i in $(seq 1 40); do
        "$BLOBC" bake "hb/h$i.yaml" -o "ref/h$i.blob" 2>>"$T/ref.err"
        until_ok 30 cmp -s "hb/o/h$i.blob" "ref/h$i.blob" || { ok=0; break; }
    done
    [ "$ok" = 1 ] && pass huge_burst_last_saves || fail huge_burst_last_saves "hb/h$i.yaml: $(tail -3 "$T/w.err")"
    k=$(($(grep -c ": baked" "$T/w.err") - 40))
    [ "$k" -le 1000 ] && pass huge_burst_no_more_bakes_than_saves || fail huge_burst_no_more_bakes_than_saves "$k bakes for 1000 saves"
else
    fail huge_burst "$(tail -5 "$T/w.err")"
fi
stop_watch
