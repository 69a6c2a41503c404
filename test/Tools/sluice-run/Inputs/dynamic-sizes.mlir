// Arrays whose sizes come from arguments (sluice-run's overflow tests).
func.func @full(%m: i64) -> !usm.array<?xf32, "host", device> {
  %n = arith.index_cast %m : i64 to index
  %c = arith.constant 1.0 : f32
  %f = usm.full %c (%n) : f32 -> !usm.array<?xf32, "host", device>
  return %f : !usm.array<?xf32, "host", device>
}

func.func @broadcast(%x: !usm.array<1xf32, "host", device>, %m: i64) -> !usm.array<?x4xf32, "host", device> {
  %n = arith.index_cast %m : i64 to index
  %f = usm.broadcast_to %x (%n) : !usm.array<1xf32, "host", device> -> !usm.array<?x4xf32, "host", device>
  return %f : !usm.array<?x4xf32, "host", device>
}
