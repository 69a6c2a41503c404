// f16 arithmetic on an OpenCL queue (f16-native.test).
!H = !usm.array<?xf16, "opencl:cpu:0", device>
func.func @main(%a: !H, %b: !H) -> !H {
  %0 = usm.add %a, %b : (!H, !H) -> !H
  %1 = usm.mul %0, %b : (!H, !H) -> !H
  return %1 : !H
}
