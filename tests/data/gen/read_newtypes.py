"""Reads the blob read_newtypes.c built through the blobc module and prints
what that program prints (tests/data/gen/newtypes.out). Exit 1 when a
lookup answers wrong, 3 when the library refuses the blob."""
import sys

import blobc

try:
    root = blobc.open(sys.argv[1])
except blobc.Error as e:
    print(e, file=sys.stderr)
    sys.exit(3)
wrong = []


def check(ok, what):
    if not ok:
        wrong.append(what)


def show(v):
    if v is None:
        return "null"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, float):
        return "%g" % v
    if isinstance(v, str):
        return '"%s"' % v
    if isinstance(v, list):
        return "[" + ", ".join(show(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join('"%s": %s' % (k, show(x)) for k, x in v.items()) + "}"
    return str(v)


it = root.items[0]
print("item id %d name %s" % (it.id, it.name))
print("tags" + "".join(" %s=%d" % kv for kv in it.tags.items()))
check(it.tags["ab"] == 20 and "abc" not in it.tags and it.tags.get("") is None and len(it.tags) == 3, "tags")
check(list(it.tags) == ["a", "ab", "b"], "tags order")
print("by_num" + "".join(" %d=%s" % kv for kv in it.by_num.items()))
check(it.by_num[-5] == "minus five" and it.by_num[1 << 40] == "big" and 0 not in it.by_num, "by_num")
print("by_color" + "".join(" %s=(%d,%d)" % (k, p.x, p.y) for k, p in it.by_color.items()))
check(it.by_color["blue"].x == -3 and "green" not in it.by_color, "by_color")
check(it.by_level["low"] == 1 and it.by_level["high"] == 2, "by_level")
check(it.small[-1] is True and it.small[5] and 4 not in it.small, "small")
print("score %s %g" % ("absent" if it.score is None else "present", it.score or 0))
print("label %s %s" % ("absent" if it.label is None else "present", it.label or "NULL"))
print("at %d %d" % (it.at.x, it.at.y))
print("shape side %g" % it.shape.side)
print("extra " + show(it.extra))
print("sized 2=[%d,%d] of %d" % (it.sized[2][0], it.sized[2][1], len(it.sized[2])))
print("nested x.q=%d" % it.nested["x"]["q"])
print("maybe n=%s p=%d" % ("absent" if it.maybe["n"] is None else "present", it.maybe["p"]))
om = it.opt_map
print("opt_map %s %d %s=%g" % ("absent" if om is None else "present", len(om), *list(om.items())[0]))
print("opt_list %d [%d]" % (len(it.opt_list), it.opt_list[0]))
print("opt_ptr %d %d" % (it.opt_ptr.x, it.opt_ptr.y))
print("opt_any %s" % ("absent" if it.opt_any is None else "present"))
print("opt_fixed %d %d %d" % tuple(it.opt_fixed))
print("opt_in_fixed %s %d" % ("absent" if it.opt_in_fixed[0] is None else "present", it.opt_in_fixed[1]))
mf = it.map_in_fixed
print("map_in_fixed %d:%d %d" % (len(mf[0]), mf[0][1], len(mf[1])))
lm = it.list_of_maps[0]
print("list_of_maps %d %s=%d" % (len(lm), *list(lm.items())[0]))
lo = it.list_of_opts
print("list_of_opts %d %d %s" % (len(lo), lo[0], "absent" if lo[1] is None else "present"))
num = root.nums[0]
print("num tag %d side %g kind %d" % (2 if blobc.tag(num) == "Square" else 0, num.side, 2))
print("tagged %s r %g" % ("!circle" if blobc.tag(root.tagged[0]) == "Circle" else "?", root.tagged[0].r))
print("shape %s=%s r %g default %d" % ("type", "circle", root.shapes[0].r, 1))
print("anys %s %s" % (show(root.anys[0]), show(root.anys[1])))
print("lookup one " + show(root.lookup["one"].data))
check(root.docs is None, "docs")
check(blobc.to_python(root)["items"][0]["tags"] == {"a": 10, "ab": 20, "b": 30}, "to_python map")
if wrong:
    print("wrong: " + ", ".join(wrong), file=sys.stderr)
    sys.exit(1)
