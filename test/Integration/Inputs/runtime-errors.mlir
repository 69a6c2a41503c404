// Programs whose run-time checks fail for some inputs (runtime-errors.test).
!V = !usm.array<?xf32, "host:cpu:0", device>
!M = !usm.array<?x?xf32, "host:cpu:0", device>

func.func @add(%a: !V, %b: !V) -> !V {
  %0 = usm.add %a, %b : (!V, !V) -> !V
  %1 = usm.exp %0 : (!V) -> !V
  return %1 : !V
}

func.func @chain(%a: !M, %b: !V, %c: !M) -> !M {
  %0 = usm.mul %a, %b : (!M, !V) -> !M
  %1 = usm.sub %0, %c : (!M, !M) -> !M
  return %1 : !M
}

func.func @static_meets_dynamic(%a: !usm.array<?x4xf32, "host:cpu:0", device>, %b: !usm.array<3x4xf32, "host:cpu:0", device>) -> !usm.array<3x4xf32, "host:cpu:0", device> {
  %0 = usm.add %a, %b : (!usm.array<?x4xf32, "host:cpu:0", device>, !usm.array<3x4xf32, "host:cpu:0", device>) -> !usm.array<3x4xf32, "host:cpu:0", device>
  return %0 : !usm.array<3x4xf32, "host:cpu:0", device>
}

func.func @reshape(%a: !V, %rows: i64, %cols: i64) -> !M {
  %r = arith.index_cast %rows : i64 to index
  %c = arith.index_cast %cols : i64 to index
  %0 = usm.reshape %a (%r, %c) : !V -> !M
  return %0 : !M
}

func.func @broadcast_to(%a: !V, %rows: i64, %cols: i64) -> !M {
  %r = arith.index_cast %rows : i64 to index
  %c = arith.index_cast %cols : i64 to index
  %0 = usm.broadcast_to %a (%r, %c) : !V -> !M
  return %0 : !M
}

func.func @creation(%k: i64, %s: f32) -> (!V, !V, !V) {
  %n = arith.index_cast %k : i64 to index
  %0 = usm.full %s (%n) : f32 -> !V
  %1 = usm.arange %s, %s (%n) : f32 -> !V
  %2 = usm.empty(%n) : !V
  return %0, %1, %2 : !V, !V, !V
}

func.func @max_of(%a: !M) -> !usm.array<?xf32, "host:cpu:0", device> {
  %0 = usm.max %a axes [1] : !M -> !usm.array<?xf32, "host:cpu:0", device>
  return %0 : !usm.array<?xf32, "host:cpu:0", device>
}

func.func @min_of(%a: !V) -> !usm.array<f32, "host:cpu:0", device> {
  %0 = usm.min %a : !V -> !usm.array<f32, "host:cpu:0", device>
  return %0 : !usm.array<f32, "host:cpu:0", device>
}
