// The programs bench/lazy.py's lazy graphs become (the structure of the
// graph, sizes dynamic), for the GPU machine.
!P = !usm.array<?x1x?xf32, "cuda:gpu:0", device>
!Q = !usm.array<1x?x?xf32, "cuda:gpu:0", device>
!D = !usm.array<?x?x?xf32, "cuda:gpu:0", device>
!R = !usm.array<?x?xf32, "cuda:gpu:0", device>
!K = !usm.array<?x1xf32, "cuda:gpu:0", device>
func.func @pairwise(%a: !P, %b: !Q) -> !R {
  %0 = usm.sub %a, %b : (!P, !Q) -> !D
  %1 = usm.mul %0, %0 : (!D, !D) -> !D
  %2 = usm.sum %1 axes [2] : !D -> !R
  %3 = usm.sqrt %2 : (!R) -> !R
  return %3 : !R
}
func.func @softmax(%x: !R) -> !R {
  %m = usm.max %x axes [1] keepdims : !R -> !K
  %d = usm.sub %x, %m : (!R, !K) -> !R
  %e = usm.exp %d : (!R) -> !R
  %s = usm.sum %e axes [1] keepdims : !R -> !K
  %o = usm.div %e, %s : (!R, !K) -> !R
  return %o : !R
}
