# The benchmark level for `capnp convert`: the same fields, types and enum
# values as bench/level.schema, so capnp reads the same JSON that
# bench/gen_level.c writes.
@0xc1dac8c8742cf98e;

enum Kind { floor @0; wall @1; door @2; stairs @3; }

struct Vec3 {
  x @0 :Float32;
  y @1 :Float32;
  z @2 :Float32;
}

struct Room {
  name @0 :Text;
  kind @1 :Kind;
  center @2 :Vec3;
  radius @3 :Float32;
  lit @4 :Bool;
  neighbors @5 :List(UInt32);
  tags @6 :List(Text);
}

struct Level {
  name @0 :Text;
  rooms @1 :List(Room);
}
