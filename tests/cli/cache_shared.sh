# A cache directory that other users can write: whatever they plant in it
# (links, FIFOs, sockets, devices, directories, hard links, stale or
# forged files), a bake stays inside the cache, never hangs or crashes,
# and bakes the right bytes; stats removes nothing; prune removes only
# the cache's own files and fails loudly when it cannot.
. "$(dirname "$0")/lib.sh"
cp "$TOP/schemas/level.schema" "$T/level.schema"
sed -e 's|^\$schema: .*|$schema: level.schema|' "$TOP/samples/level.yaml" >"$T/level.yaml"
"$BLOBC" bake "$T/level.yaml" -o "$T/want.blob" || fail setup "plain bake failed"

# fresh DIR : a cache holding the entry of level.yaml; sets E (its path),
# SUB (its subdirectory) and GOOD (a copy of the entry).
fresh() {
    rm -rf "$1"
    "$BLOBC" bake -q --cache "$1" "$T/level.yaml" -o "$T/setup.blob"
    E=$(find "$1" -type f -path '*/[0-9a-f][0-9a-f]/*' | head -1)
    # Without an entry every later check would plant files in ".": stop.
    if [ -z "$E" ]; then
        fail setup_entry "no cache entry under $1 after a bake"
        exit 0
    fi
    SUB=$(dirname "$E")
    cp "$E" "$T/good.entry"
    GOOD=$T/good.entry
}

# planted NAME KIND : with E replaced by something else, a bake exits 0
# within 10 s, warns naming KIND, writes the right bytes, and leaves a
# good entry in place (the next bake is a hit).
planted() {
    run timeout 10 "$BLOBC" bake -v --cache "$C" "$T/level.yaml" -o "$T/got.blob"
    if [ "$RC" -ne 0 ]; then fail "$1" "exit $RC (124: it hung); stderr: $(head -c 300 "$T/err")"; return; fi
    grep -qF "$2" "$T/err" || { fail "$1" "no warning naming '$2': $(head -c 300 "$T/err")"; return; }
    cmp -s "$T/got.blob" "$T/want.blob" || { fail "$1" "wrong output"; return; }
    pass "$1"
}

C=$T/cache
echo secret >"$T/victim"
cp "$T/victim" "$T/victim.orig"

# not_here WHY NAME... : under Wine (the Windows build), the checks NAME
# cannot run for the reason WHY; each is counted as skipped. True then.
not_here() {
    windows_build || return 1
    why=$1
    shift
    for n in "$@"; do skip "$n" "$why"; done
}
# Wine shows a Unix symbolic link as the file it names, not as a reparse
# point, so the refusal of links (reparse points on Windows) cannot be
# seen under Wine; the cases are Windows' as much as Linux's.
NO_LINKS="Wine shows Unix symbolic links as the files they name, never as reparse points"

# A symbolic link at the entry path: never followed, neither to read (a
# link to a good entry is refused too) nor to write.
if ! not_here "$NO_LINKS" symlink_entry_bakes symlink_entry_target_untouched symlink_entry_replaced \
    symlink_to_entry_refused dangling_symlink_entry dangling_symlink_target_not_created; then
fresh "$C"
cp "$E" "$T/linked.entry"
rm "$E" && ln -s "$T/victim" "$E"
planted symlink_entry_bakes "symbolic link"
same_file symlink_entry_target_untouched "$T/victim" "$T/victim.orig"
[ -f "$E" ] && [ ! -L "$E" ] && cmp -s "$E" "$GOOD" && pass symlink_entry_replaced ||
    fail symlink_entry_replaced "$(ls -l "$E")"
rm "$E" && ln -s "$T/linked.entry" "$E"
planted symlink_to_entry_refused "symbolic link"
rm "$E" && ln -s "$T/created-by-bake" "$E"
planted dangling_symlink_entry "symbolic link"
absent dangling_symlink_target_not_created "$T/created-by-bake"
fi

# A hard link at the entry path to a file outside: neither written nor
# touched (its times are its owner's).
fresh "$C"
touch -d '2000-01-01' "$T/victim"
rm "$E" && ln "$T/victim" "$E"
planted hardlink_entry "not a cache entry"
same_file hardlink_target_untouched "$T/victim" "$T/victim.orig"
[ "$(date -r "$T/victim" +%Y)" = 2000 ] && pass hardlink_target_not_touched ||
    fail hardlink_target_not_touched "mtime now $(date -r "$T/victim")"

# Files that are not regular files at the entry path: none is opened in a
# way that can block, each is replaced by a good entry.
if ! not_here "Windows has no FIFOs, sockets or devices in a directory" fifo_entry fifo_entry_replaced \
    symlink_to_fifo_entry socket_entry device_entry; then
fresh "$C"
rm "$E" && mkfifo "$E"
planted fifo_entry "FIFO"
[ -f "$E" ] && cmp -s "$E" "$GOOD" && pass fifo_entry_replaced || fail fifo_entry_replaced "$(ls -l "$E")"
rm "$E" && ln -s "$T/fifo" "$E" && mkfifo "$T/fifo"
planted symlink_to_fifo_entry "symbolic link"
rm "$E"
if python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$E" 2>/dev/null; then
    planted socket_entry "socket"
else
    skip socket_entry "python3 cannot create a socket here"
fi
rm -f "$E"
if mknod "$E" c 1 5 2>/dev/null; then
    planted device_entry "device" # /dev/zero: reading it would never end
else
    skip device_entry "mknod needs root"
fi
fi
fresh "$C"
rm -f "$E" && mkdir "$E"
planted directory_entry "directory"
rmdir "$E"

# A file with this key's head declaring 600 MiB (sparse, so it costs no
# disk): the size is judged before anything past the head is allocated.
fresh "$C"
head -c 24 "$E" >"$T/huge"
printf '\340\377\177\045\0\0\0\0' >>"$T/huge"
truncate -s 629145600 "$T/huge" && mv "$T/huge" "$E"
planted huge_entry "past 512 MiB"

# A symbolic link for a subdirectory, pointing at a home directory: no
# bake, stats or prune reads, writes or removes anything there, not even
# files named like entries or like a killed writer's temporary files.
if ! not_here "$NO_LINKS" symlink_dir_bake symlink_dir_stats symlink_dir_not_counted symlink_dir_prune \
    symlink_dir_untouched stats_symlink_not_written stats_symlink_not_read stats_symlink_counts \
    stats_file_symlink_not_read; then
fresh "$C"
mkdir "$T/home"
hex=$(basename "$E")
for f in .bashrc .gitconfig ".$hex.abc123" "$hex"; do echo mine >"$T/home/$f"; done
touch -d '2 hours ago' "$T/home"/.[!.]* "$T/home/$hex"
{ ls -ld --time-style=+%s "$T/home"; ls -lA --time-style=+%s "$T/home"; } >"$T/home.before"
rm -r "$SUB" && ln -s "$T/home" "$SUB"
planted symlink_dir_bake "symbolic link"
expect symlink_dir_stats 0 "$BLOBC" cache stats "$C"
grep -q '^entries: 0$' "$T/out" && pass symlink_dir_not_counted || fail symlink_dir_not_counted "$(cat "$T/out")"
expect symlink_dir_prune 0 "$BLOBC" cache prune --max-size 0 "$C"
{ ls -ld --time-style=+%s "$T/home"; ls -lA --time-style=+%s "$T/home"; } >"$T/home.after"
same_file symlink_dir_untouched "$T/home.after" "$T/home.before"

# stats/ is a symbolic link, or holds one: counts are neither written
# through it nor read from it.
fresh "$C"
mkdir "$T/elsewhere"
rm -r "$C/stats" && ln -s "$T/elsewhere" "$C/stats"
"$BLOBC" bake -q --cache "$C" "$T/level.yaml" -o "$T/got.blob"
[ -z "$(ls -A "$T/elsewhere")" ] && pass stats_symlink_not_written || fail stats_symlink_not_written "$(ls "$T/elsewhere")"
echo "1000 1000" >"$T/elsewhere/p.forged"
expect stats_symlink_not_read 0 "$BLOBC" cache stats "$C"
grep -q '^hits: 0$' "$T/out" && pass stats_symlink_counts || fail stats_symlink_counts "$(cat "$T/out")"
rm "$C/stats" && mkdir "$C/stats" && ln -s "$T/elsewhere/p.forged" "$C/stats/p.linked"
run "$BLOBC" cache stats "$C"
grep -q '^hits: 0$' "$T/out" && pass stats_file_symlink_not_read || fail stats_file_symlink_not_read "$(cat "$T/out")"
fi

# stats deletes nothing; prune removes a killed writer's temporary files
# (by name, an hour old), never other files of the cache's directories.
fresh "$C"
hex=$(basename "$E")
tmp="$SUB/.$hex.zz9zz9"
echo partial >"$tmp"
echo mine >"$SUB/.bashrc"
echo mine >"$SUB/notes.txt"
echo partial >"$C/stats/.p.zz9zz9zz9zz9"
touch -d '2 hours ago' "$tmp" "$SUB/.bashrc" "$SUB/notes.txt" "$C/stats/.p.zz9zz9zz9zz9"
expect stats_ok 0 "$BLOBC" cache stats "$C"
[ -f "$tmp" ] && [ -f "$C/stats/.p.zz9zz9zz9zz9" ] && pass stats_deletes_nothing ||
    fail stats_deletes_nothing "a temporary file is gone"
expect prune_keeps_entries 0 "$BLOBC" cache prune --max-size 1G "$C"
[ ! -e "$tmp" ] && [ ! -e "$C/stats/.p.zz9zz9zz9zz9" ] && pass prune_removes_old_temps ||
    fail prune_removes_old_temps "$(ls -A "$SUB" "$C/stats")"
[ -f "$SUB/.bashrc" ] && [ -f "$SUB/notes.txt" ] && [ -f "$E" ] && pass prune_keeps_other_files ||
    fail prune_keeps_other_files "$(ls -A "$SUB")"

# A subdirectory that cannot be read is an error, not entries left
# uncounted. As root (who may read anything), blobc runs as nobody.
fresh "$C"
chmod 000 "$SUB"
chmod 755 "$T"
if windows_build; then
    RC=windows
elif [ "$(id -u)" -ne 0 ]; then
    run "$BLOBC" cache stats "$C"
elif command -v setpriv >/dev/null 2>&1; then
    run setpriv --reuid=65534 --regid=65534 --clear-groups "$BLOBC" cache stats "$C"
else
    RC=skip
fi
if [ "$RC" = windows ]; then
    skip unreadable_subdir_fails "Wine runs as root here, who reads any directory"
elif [ "$RC" = skip ]; then
    skip unreadable_subdir_fails "running as root without setpriv"
elif [ "$RC" -eq 2 ] && grep -qF "cannot read the cache directory '$SUB': Permission denied" "$T/err"; then
    pass unreadable_subdir_fails
else
    fail unreadable_subdir_fails "exit $RC; stdout: $(cat "$T/out"); stderr: $(cat "$T/err")"
fi
chmod 755 "$SUB"

# An entry truncated (and restored) while bakes read it: never a crash,
# always the right bytes. The entry is large (8 MB) so that reading it
# takes long enough to be cut short often.
{ printf '{"xs": ['; seq -s, 0 1999999; printf ']}\n'; } >"$T/big.json"
printf 'struct R { xs: [u32]; } root R;\n' >"$T/big.schema"
CB=$T/cache-big
"$BLOBC" bake -q -s "$T/big.schema" --cache "$CB" "$T/big.json" -o "$T/big.want"
EB=$(find "$CB" -type f -path '*/[0-9a-f][0-9a-f]/*')
cp "$EB" "$T/big.entry"
(
    i=0
    while [ $i -lt 1000 ] && [ ! -e "$T/race.done" ]; do
        truncate -s 100000 "$EB"
        cat "$T/big.entry" >"$EB"
        i=$((i + 1))
    done
) &
cutter=$!
n=0 crashed=0 wrong=0
while [ $n -lt 40 ]; do
    "$BLOBC" bake -q -s "$T/big.schema" --cache "$CB" "$T/big.json" -o "$T/big.got" 2>/dev/null
    rc=$?
    [ $rc -gt 128 ] && crashed=$((crashed + 1))
    [ $rc -eq 0 ] && cmp -s "$T/big.got" "$T/big.want" || wrong=$((wrong + 1))
    n=$((n + 1))
done
touch "$T/race.done"
wait "$cutter"
[ $crashed -eq 0 ] && pass truncated_while_read_no_crash || fail truncated_while_read_no_crash "$crashed of 40 bakes killed by a signal"
[ $wrong -eq 0 ] && pass truncated_while_read_right_bytes || fail truncated_while_read_right_bytes "$wrong of 40 wrong"

# stats/ stays small however many processes used the cache, and no count
# is lost or counted twice (one after another, and 12 at a time).
C3=$T/cache3
n=0
while [ $n -lt 40 ]; do
    "$BLOBC" bake -q --cache "$C3" "$T/level.yaml" -o "$T/got.blob"
    n=$((n + 1))
done
files=$(ls -A "$C3/stats" | wc -l)
[ "$files" -le 16 ] && pass stats_bounded || fail stats_bounded "$files files in stats/ after 40 bakes"
run "$BLOBC" cache stats "$C3"
grep -q '^hits: 39$' "$T/out" && grep -q '^misses: 1$' "$T/out" && pass stats_bounded_counts ||
    fail stats_bounded_counts "$(cat "$T/out")"
round=0
while [ $round -lt 3 ]; do
    i=0
    while [ $i -lt 12 ]; do
        "$BLOBC" bake -q --cache "$C3" "$T/level.yaml" -o "$T/par$i.blob" &
        i=$((i + 1))
    done
    wait
    round=$((round + 1))
done
files=$(ls -A "$C3/stats" | wc -l)
[ "$files" -le 28 ] && pass stats_bounded_parallel || fail stats_bounded_parallel "$files files in stats/"
run "$BLOBC" cache stats "$C3"
grep -q '^hits: 75$' "$T/out" && pass stats_parallel_counts || fail stats_parallel_counts "$(cat "$T/out")"

# prune on a cache it cannot write fails, naming the path and the reason.
# As root (who may write anything), the cache is mounted read-only in a
# mount namespace of the test's own.
fresh "$C"
ro() { # ro DIR CMD... : runs CMD with DIR read-only
    d=$1
    shift
    if [ "$(id -u)" -ne 0 ]; then
        chmod -R a-w "$d"
        "$@"
        rc=$?
        chmod -R u+w "$d"
        return $rc
    fi
    unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && shift && exec "$@"' \
        sh "$d" "$@"
}
if windows_build; then
    skip prune_read_only_fails "the wineserver, outside the test's mount namespace, makes the file calls; Windows has ACLs, not mode bits"
elif [ "$(id -u)" -ne 0 ] || unshare -m sh -c "mount --bind '$C' '$C' && mount -o remount,bind,ro '$C' '$C'" 2>/dev/null; then
    run ro "$C" "$BLOBC" cache prune --max-size 0 "$C"
    if [ "$RC" -eq 2 ] && grep -qF "$C" "$T/err" && grep -qiE 'read-only|permission denied' "$T/err" &&
        ! grep -q removed "$T/out"; then
        pass prune_read_only_fails
    else
        fail prune_read_only_fails "exit $RC; stdout: $(cat "$T/out"); stderr: $(cat "$T/err")"
    fi
    [ -f "$E" ] && pass prune_read_only_entry_kept || fail prune_read_only_entry_kept "entry gone"
    run ro "$C" "$BLOBC" cache stats "$C"
    rc_is stats_read_only_works 0 && pass stats_read_only_works
    # Only the subdirectory is read-only: the entry that could not go is named.
    run ro "$SUB" "$BLOBC" cache prune --max-size 0 "$C"
    if [ "$RC" -eq 2 ] && grep -qF "cannot remove the cache entry '$E'" "$T/err"; then
        pass prune_entry_not_removed_fails
    else
        fail prune_entry_not_removed_fails "exit $RC; stdout: $(cat "$T/out"); stderr: $(cat "$T/err")"
    fi
else
    skip prune_read_only_fails "cannot make a read-only directory here (root without mount namespaces)"
fi
