// One ADD of two [1, 256] tensors: the per-call overhead benchmark
// (HostDeviceBenchmark.cpp) compiles it with one_add.placement.json so that
// the ADD runs on NNAPI however small it is.
func.func @main(%a: tensor<1x256xf32>, %b: tensor<1x256xf32>) -> tensor<1x256xf32> {
  %0 = tosa.add %a, %b : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
  return %0 : tensor<1x256xf32>
}
