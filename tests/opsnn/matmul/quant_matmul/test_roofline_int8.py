"""The roofline benchmark's int8 row: QuantMatmulV4 on 910B2 runs close to twice the
fp16 Matmul rate (the Cube's int8 rate is 16x32x16 MACs a cycle, fp16's 16x16x16)."""
from benchmarks import roofline


def test_int8_row_runs_near_twice_fp16():
    fp16 = roofline.run("ascend910b2", [2048], [], progress=False)[0]
    (i8,) = roofline.run("ascend910b2", [], [], progress=False, int8_sizes=[2048])
    assert (i8.op, i8.dtype, i8.size) == ("QuantMatmulV4", "int8", "2048^3")
    assert i8.peak_tflops == 2 * fp16.peak_tflops
    assert 1.7 < i8.tflops / fp16.tflops < 2.05
    assert i8.tflops <= i8.attainable_tflops * 1.0001
