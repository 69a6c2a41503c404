// RUN: sluice-opt %s --usm-expand-contractions -verify-diagnostics

// Dynamic sizes are not expanded yet: a diagnostic, never a crash.
func.func @dynamic(%a: !usm.array<?x8xf32, "host:cpu:0", device>,
                   %b: !usm.array<8x3xf32, "host:cpu:0", device>)
    -> !usm.array<?x3xf32, "host:cpu:0", device> {
  // expected-error @+1 {{'usm.matmul' op with dynamic sizes is not supported by usm-expand-contractions yet}}
  %c = usm.matmul %a, %b : (!usm.array<?x8xf32, "host:cpu:0", device>, !usm.array<8x3xf32, "host:cpu:0", device>) -> !usm.array<?x3xf32, "host:cpu:0", device>
  return %c : !usm.array<?x3xf32, "host:cpu:0", device>
}
