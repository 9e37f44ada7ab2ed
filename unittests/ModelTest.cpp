//===- ModelTest.cpp - The runtime's model API (Model.h) ------------------===//
//
// Opening, describing and running models through Model.h, with stand-in
// models (Inputs/fake_model.c) for every way a model can be malformed, and
// every argument check of nnapi_rt_model_run.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Runtime/Model.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

namespace {

struct ModelAPI : ::testing::Test {
  nnapi_rt_model *model = nullptr;
  void TearDown() override { nnapi_rt_model_close(model); }
  int32_t open(const char *path) { return nnapi_rt_model_open(path, &model); }
  std::string error() { return nnapi_rt_last_error(); }
  /// Runs a stand-in model (y = x * k, x and y of 2x3 floats).
  int32_t runScaled(float (&x)[6], int32_t k, float (&y)[6]) {
    return runScaledOn(model, x, k, y);
  }
  static int32_t runScaledOn(nnapi_rt_model *m, float (&x)[6], int32_t k,
                             float (&y)[6]) {
    const void *in[2] = {x, &k};
    uint64_t inBytes[2] = {sizeof x, sizeof k};
    void *out[1] = {y};
    uint64_t outBytes[1] = {sizeof y};
    return nnapi_rt_model_run(m, 2, in, inBytes, 1, out, outBytes);
  }
};

TEST_F(ModelAPI, OpensDescribesAndRuns) {
  ASSERT_EQ(open(FAKE_MODEL_OK), NNAPI_RT_OK) << error();
  EXPECT_EQ(nnapi_rt_model_num_inputs(model), 2);
  EXPECT_EQ(nnapi_rt_model_num_outputs(model), 1);
  EXPECT_EQ(nnapi_rt_model_num_partitions(model), 0);
  nnapi_rt_tensor_info info;
  ASSERT_EQ(nnapi_rt_model_input(model, 0, &info), NNAPI_RT_OK);
  EXPECT_STREQ(info.name, "x");
  EXPECT_STREQ(info.dtype, "f32");
  ASSERT_EQ(info.rank, 2);
  EXPECT_EQ(info.dims[0], 2);
  EXPECT_EQ(info.dims[1], 3);
  EXPECT_EQ(info.bytes, 24u);
  ASSERT_EQ(nnapi_rt_model_input(model, 1, &info), NNAPI_RT_OK);
  EXPECT_EQ(info.rank, 0);
  EXPECT_EQ(info.bytes, 4u);
  ASSERT_EQ(nnapi_rt_model_output(model, 0, &info), NNAPI_RT_OK);
  EXPECT_STREQ(info.name, "y");

  float x[6] = {1, -2, 3, -4, 5, 0.5f}, y[6] = {};
  ASSERT_EQ(runScaled(x, 3, y), NNAPI_RT_OK) << error();
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(y[i], x[i] * 3);
}

TEST_F(ModelAPI, RunChecksEveryArgument) {
  ASSERT_EQ(open(FAKE_MODEL_OK), NNAPI_RT_OK) << error();
  float x[6] = {}, y[6] = {};
  int32_t k = 1;
  const void *in[2] = {x, &k};
  uint64_t inBytes[2] = {sizeof x, sizeof k};
  void *out[1] = {y};
  uint64_t outBytes[1] = {sizeof y};
  EXPECT_EQ(nnapi_rt_model_run(model, 1, in, inBytes, 1, out, outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "the model takes 2 inputs, got 1");
  EXPECT_EQ(nnapi_rt_model_run(model, 2, in, inBytes, 2, out, outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "the model takes 1 outputs, got 2");
  uint64_t shortBytes[2] = {sizeof x - 4, sizeof k};
  EXPECT_EQ(nnapi_rt_model_run(model, 2, in, shortBytes, 1, out, outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "input 0 ('x', f32) needs 24 bytes, got 20");
  uint64_t bigOut[1] = {sizeof y + 4};
  EXPECT_EQ(nnapi_rt_model_run(model, 2, in, inBytes, 1, out, bigOut),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "output 0 ('y', f32) needs 24 bytes, got 28");
  const void *nullIn[2] = {x, nullptr};
  EXPECT_EQ(nnapi_rt_model_run(model, 2, nullIn, inBytes, 1, out, outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "input 1 ('k') is a null pointer");
  EXPECT_EQ(nnapi_rt_model_run(model, 2, nullptr, inBytes, 1, out, outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "null input array");
  EXPECT_EQ(nnapi_rt_model_run(nullptr, 2, in, inBytes, 1, out, outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  nnapi_rt_tensor_info info;
  EXPECT_EQ(nnapi_rt_model_input(model, 2, &info), NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "input index 2 is out of range: the model has 2 inputs");
  EXPECT_EQ(nnapi_rt_model_output(model, -1, &info), NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(nnapi_rt_model_input(model, 0, nullptr), NNAPI_RT_INVALID_ARGUMENT);
}

// An input compiled for one value: the model's own check (1 + its index)
// becomes an argument error naming it; the matching value runs.
TEST_F(ModelAPI, BoundInputMustHoldItsValue) {
  ASSERT_EQ(open(FAKE_MODEL_BOUND), NNAPI_RT_OK) << error();
  EXPECT_EQ(nnapi_rt_model_input_is_bound(model, 0), 0);
  EXPECT_EQ(nnapi_rt_model_input_is_bound(model, 1), 1);
  EXPECT_EQ(nnapi_rt_model_input_is_bound(model, 2), 0);
  EXPECT_EQ(nnapi_rt_model_input_is_bound(nullptr, 1), 0);
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {};
  EXPECT_EQ(runScaled(x, 4, y), NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "input 1 ('k') does not hold the value the model was "
                     "compiled for (--input-value or --specialize-value "
                     "decided shapes or branches with it); nothing ran");
  ASSERT_EQ(runScaled(x, 3, y), NNAPI_RT_OK) << error();
  EXPECT_EQ(y[5], 18);
}

TEST_F(ModelAPI, UnknownRunStatusIsAnError) {
  ASSERT_EQ(open(FAKE_MODEL_BAD_STATUS), NNAPI_RT_OK) << error();
  float x[6] = {}, y[6] = {};
  EXPECT_EQ(runScaled(x, 1, y), NNAPI_RT_INVALID_MODEL);
  EXPECT_EQ(error(), "the model's nnapi_model_run returned unknown status 7");
}

// Version 4 signatures percent-encode names: any bytes come back.
TEST_F(ModelAPI, NamesAreDecoded) {
  ASSERT_EQ(open(FAKE_MODEL_ENCODED_NAMES), NNAPI_RT_OK) << error();
  nnapi_rt_tensor_info info;
  ASSERT_EQ(nnapi_rt_model_input(model, 0, &info), NNAPI_RT_OK);
  EXPECT_STREQ(info.name, "x y\n\xc3\xa9");
  ASSERT_EQ(nnapi_rt_model_input(model, 1, &info), NNAPI_RT_OK);
  EXPECT_STREQ(info.name, "k");
  ASSERT_EQ(nnapi_rt_model_output(model, 0, &info), NNAPI_RT_OK);
  EXPECT_STREQ(info.name, "\"y\"");
}

// Dynamic dimensions (signature version 5): ranges are reported, output
// dimensions computed by the model, every size checked at the dimensions
// of the call, and the static entry refused.
// A model compiled with --shape-buckets runs once at each when opened (the
// runtime then has its dynamic partitions compiled for those shapes), and
// not in host-only mode, where there is nothing to prepare.
TEST_F(ModelAPI, OpeningRunsTheShapeBuckets) {
  void *lib = dlopen(FAKE_MODEL_BUCKETS, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr);
  auto *runs = static_cast<int32_t *>(dlsym(lib, "fake_model_runs"));
  ASSERT_NE(runs, nullptr);
  *runs = 0;
  ASSERT_EQ(open(FAKE_MODEL_BUCKETS), NNAPI_RT_OK) << error();
  EXPECT_EQ(*runs, 2);
  nnapi_rt_model_close(model);
  model = nullptr;
  nnapi_rt_set_mode(NNAPI_RT_MODE_HOST_ONLY);
  ASSERT_EQ(open(FAKE_MODEL_BUCKETS), NNAPI_RT_OK) << error();
  nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
  EXPECT_EQ(*runs, 2);
  dlclose(lib);
}

TEST_F(ModelAPI, DynamicDimensions) {
  ASSERT_EQ(open(FAKE_MODEL_DYNAMIC), NNAPI_RT_OK) << error();
  EXPECT_EQ(nnapi_rt_model_is_dynamic(model), 1);
  nnapi_rt_tensor_info info;
  ASSERT_EQ(nnapi_rt_model_input(model, 0, &info), NNAPI_RT_OK);
  EXPECT_EQ(std::vector<int64_t>(info.dims, info.dims + info.rank),
            (std::vector<int64_t>{2, -1}));
  EXPECT_EQ(info.bytes, 0u);
  int64_t low[2], high[2];
  ASSERT_EQ(nnapi_rt_model_dims_range(model, 1, 0, low, high), NNAPI_RT_OK);
  EXPECT_EQ(std::vector<int64_t>(low, low + 2), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(std::vector<int64_t>(high, high + 2),
            (std::vector<int64_t>{2, 4}));
  ASSERT_EQ(nnapi_rt_model_dims_range(model, 0, 0, low, high), NNAPI_RT_OK);
  EXPECT_EQ(high[1], (int64_t(1) << 31) - 1);
  EXPECT_EQ(nnapi_rt_model_dims_range(model, 1, 2, low, high),
            NNAPI_RT_INVALID_ARGUMENT);

  for (int64_t n : {1, 3, 4}) {
    std::vector<float> x(size_t(2 * n)), y(size_t(2 * n), -1.f);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = float(i) + 0.5f;
    int32_t k = 3;
    int64_t xDims[] = {2, n}, kDims[1] = {0}, yDims[] = {0, 0};
    const int64_t *inDims[] = {xDims, kDims};
    int64_t *outDims[] = {yDims};
    ASSERT_EQ(nnapi_rt_model_output_dims(model, 2, inDims, 1, outDims),
              NNAPI_RT_OK)
        << error();
    EXPECT_EQ(yDims[0], 2);
    EXPECT_EQ(yDims[1], n);
    const void *in[] = {x.data(), &k};
    uint64_t inBytes[] = {x.size() * 4, 4}, outBytes[] = {y.size() * 4};
    void *out[] = {y.data()};
    ASSERT_EQ(nnapi_rt_model_run_dims(model, 2, in, inBytes, inDims, 1, out,
                                      outBytes),
              NNAPI_RT_OK)
        << error();
    for (size_t i = 0; i < y.size(); ++i)
      EXPECT_EQ(y[i], 3.f * (float(i) + 0.5f));
  }

  std::vector<float> x(10), y(10);
  int32_t k = 1;
  int64_t xDims[] = {2, 5}, kDims[1] = {0};
  const int64_t *inDims[] = {xDims, kDims};
  const void *in[] = {x.data(), &k};
  uint64_t inBytes[] = {40, 4}, outBytes[] = {40};
  void *out[] = {y.data()};
  EXPECT_EQ(nnapi_rt_model_run_dims(model, 2, in, inBytes, inDims, 1, out,
                                    outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "input 0 ('x') dimension 1 is 5, outside the range the "
                     "model was compiled for [1..4]");
  xDims[0] = 3;
  xDims[1] = 2;
  EXPECT_EQ(nnapi_rt_model_run_dims(model, 2, in, inBytes, inDims, 1, out,
                                    outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "input 0 ('x') dimension 0 is 3, the model was compiled "
                     "for 2");
  xDims[0] = 2;
  EXPECT_EQ(nnapi_rt_model_run_dims(model, 2, in, inBytes, inDims, 1, out,
                                    outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "input 0 ('x', f32) needs 16 bytes at these dimensions, "
                     "got 40");
  inBytes[0] = 16;
  EXPECT_EQ(nnapi_rt_model_run_dims(model, 2, in, inBytes, inDims, 1, out,
                                    outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "output 0 ('y', f32) needs 16 bytes at these "
                     "dimensions, got 40");
  EXPECT_EQ(nnapi_rt_model_run(model, 2, in, inBytes, 1, out, outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_NE(error().find("the model has dynamic dimensions: run it with "
                         "nnapi_rt_model_run_dims"),
            std::string::npos)
      << error();
}

// A static model runs through nnapi_rt_model_run_dims too, at its own
// dimensions only.
TEST_F(ModelAPI, RunDimsOnAStaticModel) {
  ASSERT_EQ(open(FAKE_MODEL_OK), NNAPI_RT_OK) << error();
  EXPECT_EQ(nnapi_rt_model_is_dynamic(model), 0);
  std::vector<float> x(6, 2.f), y(6);
  int32_t k = 2;
  int64_t xDims[] = {2, 3}, kDims[1] = {0};
  const int64_t *inDims[] = {xDims, kDims};
  const void *in[] = {x.data(), &k};
  uint64_t inBytes[] = {24, 4}, outBytes[] = {24};
  void *out[] = {y.data()};
  ASSERT_EQ(nnapi_rt_model_run_dims(model, 2, in, inBytes, inDims, 1, out,
                                    outBytes),
            NNAPI_RT_OK)
      << error();
  EXPECT_EQ(y[5], 4.f);
  xDims[1] = 4;
  EXPECT_EQ(nnapi_rt_model_run_dims(model, 2, in, inBytes, inDims, 1, out,
                                    outBytes),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(error(), "input 0 ('x') dimension 1 is 4, the model was compiled "
                     "for 3");
}

TEST_F(ModelAPI, RefusesWhatIsNotAModel) {
  EXPECT_EQ(nnapi_rt_model_open(nullptr, &model), NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(nnapi_rt_model_open(FAKE_MODEL_OK, nullptr),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(open("/nonexistent/model.so"), NNAPI_RT_INVALID_MODEL);
  EXPECT_NE(error().find("cannot load model"), std::string::npos) << error();
  EXPECT_EQ(model, nullptr);

  std::string text = ::testing::TempDir() + "/not_a_model.so";
  std::ofstream(text) << "plain text, not ELF\n";
  EXPECT_EQ(open(text.c_str()), NNAPI_RT_INVALID_MODEL);
  EXPECT_NE(error().find("cannot load model '" + text + "'"), std::string::npos)
      << error();

  EXPECT_EQ(open(FAKE_MODEL_NO_SIGNATURE), NNAPI_RT_INVALID_MODEL);
  EXPECT_NE(error().find("is not an nnapi-mlir model (missing "
                         "nnapi_model_signature or nnapi_model_run)"),
            std::string::npos)
      << error();
  EXPECT_EQ(open(FAKE_MODEL_NO_RUN), NNAPI_RT_INVALID_MODEL);
  EXPECT_NE(error().find("is not an nnapi-mlir model"), std::string::npos);

  EXPECT_EQ(open(FAKE_MODEL_BAD_VERSION), NNAPI_RT_INVALID_MODEL);
  EXPECT_EQ(error(), "unsupported model signature version 6 (this runtime "
                     "reads versions 3 to 5; compile the model again)");
  // Versions 1 and 2 had no checksum: a header edited down to one must not
  // turn the check off.
  EXPECT_EQ(open(FAKE_MODEL_DOWNGRADED), NNAPI_RT_INVALID_MODEL);
  EXPECT_EQ(error(), "unsupported model signature version 2 (this runtime "
                     "reads versions 3 to 5; compile the model again)");
  EXPECT_EQ(open(FAKE_MODEL_BAD_RANGE), NNAPI_RT_INVALID_MODEL);
  EXPECT_EQ(error(), "signature line 'input 0 x f32 2x[4..1]' has a malformed "
                     "dimension range '[4..1]'");
  EXPECT_EQ(open(FAKE_MODEL_BAD_BUCKET), NNAPI_RT_INVALID_MODEL);
  EXPECT_EQ(error(), "malformed signature line 'bucket 2x5,scalar'");
  EXPECT_EQ(open(FAKE_MODEL_UNKNOWN_LINE), NNAPI_RT_INVALID_MODEL);
  EXPECT_EQ(error(), "unknown model signature line 'output-bytes 0 24'");
  EXPECT_EQ(open(FAKE_MODEL_BAD_TYPE), NNAPI_RT_INVALID_MODEL);
  EXPECT_EQ(error(),
            "signature line 'input 0 x q7 2x3' has an unknown element type");
  EXPECT_EQ(open(FAKE_MODEL_HUGE_SHAPE), NNAPI_RT_INVALID_MODEL);
  EXPECT_NE(error().find("malformed, negative or too large shape"),
            std::string::npos);
  EXPECT_EQ(open(FAKE_MODEL_BOUND_OUTPUT), NNAPI_RT_INVALID_MODEL);
  EXPECT_EQ(error(), "malformed signature line 'output 0 y f32 2x3 bound'");
  EXPECT_EQ(open(FAKE_MODEL_BAD_ESCAPE), NNAPI_RT_INVALID_MODEL);
  EXPECT_EQ(error(), "malformed signature line 'input 0 x%2 f32 2x3'");
  EXPECT_EQ(open(FAKE_MODEL_NULL_SIGNATURE), NNAPI_RT_INVALID_MODEL);
  EXPECT_EQ(error(), "the model's signature is missing "
                     "(nnapi_model_signature returned NULL)");
  EXPECT_EQ(model, nullptr);
  nnapi_rt_model_close(nullptr); // allowed
  EXPECT_STREQ(nnapi_rt_status_name(NNAPI_RT_INVALID_MODEL),
               "NNAPI_RT_INVALID_MODEL");
}

} // namespace

namespace {
// Closing a model waits for the run another thread has in progress, and
// refuses runs that begin meanwhile (before, it unloaded the library under
// the running code).
TEST_F(ModelAPI, CloseWaitsForRunsInProgress) {
  using namespace std::chrono_literals;
  ASSERT_EQ(open(FAKE_MODEL_SLOW), NNAPI_RT_OK) << error();
  nnapi_rt_model *m = model;
  model = nullptr; // closed here, not by TearDown
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {};
  int32_t runStatus = -1;
  // The stand-in writes y, then sleeps k = 400 ms.
  std::thread runner([&] { runStatus = runScaledOn(m, x, 400, y); });
  auto start = std::chrono::steady_clock::now();
  while (*static_cast<volatile float *>(&y[0]) == 0 &&
         std::chrono::steady_clock::now() - start < 10s)
    std::this_thread::sleep_for(1ms);
  ASSERT_EQ(y[0], 400.0f) << "the run did not start";
  std::atomic<bool> closed{false};
  std::thread closer([&] {
    nnapi_rt_model_close(m);
    closed = true;
  });
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(closed) << "close did not wait for the run";
  float x2[6] = {}, y2[6] = {};
  EXPECT_EQ(runScaledOn(m, x2, 1, y2), NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "nnapi_rt_model_run: the model is being closed");
  runner.join();
  closer.join();
  EXPECT_EQ(runStatus, NNAPI_RT_OK);
  EXPECT_TRUE(closed);
}
} // namespace

namespace {

/// Bytes of the file at `path`.
std::string readAll(const char *path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A file holding `before` zero bytes, `body`, then `after` zero bytes,
/// open for reading (as an APK holds an uncompressed library); -1 on error.
int bundle(const std::string &name, const std::string &body, size_t before,
           size_t after) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary)
      << std::string(before, '\0') << body << std::string(after, '\0');
  return ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
}

// A model inside a larger file, by file descriptor, offset and length.
TEST_F(ModelAPI, OpensFromAFileDescriptorAtAnOffset) {
  std::string lib = readAll(FAKE_MODEL_OK);
  ASSERT_GT(lib.size(), 1000u);
  int fd = bundle("bundle.apk", lib, 4096, 100);
  ASSERT_GE(fd, 0);
  int64_t size = int64_t(lib.size());
  ASSERT_EQ(nnapi_rt_model_open_fd(fd, 4096, size, &model), NNAPI_RT_OK)
      << error();
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {};
  ASSERT_EQ(runScaled(x, 2, y), NNAPI_RT_OK) << error();
  EXPECT_EQ(y[5], 12.0f);
  nnapi_rt_model_close(model);
  model = nullptr;

  // Ranges that are not inside the file.
  EXPECT_EQ(nnapi_rt_model_open_fd(fd, 4096, size + 101, &model),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_NE(error().find("is not inside the file"), std::string::npos)
      << error();
  EXPECT_EQ(nnapi_rt_model_open_fd(fd, -1, size, &model),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(nnapi_rt_model_open_fd(fd, 0, 0, &model),
            NNAPI_RT_INVALID_ARGUMENT);
  // Bytes that are not the library, and a library cut short: the ELF
  // check refuses them before any loader maps them.
  EXPECT_EQ(nnapi_rt_model_open_fd(fd, 0, size, &model),
            NNAPI_RT_INVALID_MODEL);
  EXPECT_NE(error().find("cannot load model from file descriptor"),
            std::string::npos)
      << error();
  EXPECT_EQ(nnapi_rt_model_open_fd(fd, 4096, size / 2, &model),
            NNAPI_RT_INVALID_MODEL);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(nnapi_rt_model_open_fd(fd, 4096, size, nullptr),
            NNAPI_RT_INVALID_ARGUMENT);
  ::close(fd);
  EXPECT_EQ(nnapi_rt_model_open_fd(fd, 4096, size, &model),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_NE(error().find("is not an open file descriptor"), std::string::npos)
      << error();

  // Two models open from copies at once stay two models (the loader knows
  // a copy by its /proc/self/fd name, which a closed descriptor hands on).
  std::string other = readAll(FAKE_MODEL_ENCODED_NAMES);
  int fd1 = bundle("first.apk", lib, 0, 0), fd2 = bundle("second.apk", other, 64, 0);
  nnapi_rt_model *first = nullptr, *second = nullptr;
  ASSERT_EQ(nnapi_rt_model_open_fd(fd1, 0, size, &first), NNAPI_RT_OK) << error();
  ASSERT_EQ(nnapi_rt_model_open_fd(fd2, 64, int64_t(other.size()), &second),
            NNAPI_RT_OK)
      << error();
  nnapi_rt_tensor_info a, b;
  ASSERT_EQ(nnapi_rt_model_input(first, 0, &a), NNAPI_RT_OK);
  ASSERT_EQ(nnapi_rt_model_input(second, 0, &b), NNAPI_RT_OK);
  EXPECT_STRNE(a.name, b.name);
  nnapi_rt_model_close(first);
  nnapi_rt_model_close(second);
  ::close(fd1);
  ::close(fd2);

  // A loadable library that is not a model.
  std::string noRun = readAll(FAKE_MODEL_NO_RUN);
  fd = bundle("no_run.apk", noRun, 512, 0);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(nnapi_rt_model_open_fd(fd, 512, int64_t(noRun.size()), &model),
            NNAPI_RT_INVALID_MODEL);
  EXPECT_NE(error().find("is not an nnapi-mlir model"), std::string::npos)
      << error();
  ::close(fd);
}

// A model the process loaded itself (System.loadLibrary), by its name.
TEST_F(ModelAPI, OpensALoadedLibraryByName) {
  EXPECT_EQ(nnapi_rt_model_open_loaded("libnot-loaded-anywhere.so", &model),
            NNAPI_RT_INVALID_MODEL);
  EXPECT_NE(error().find("is loaded in this process"), std::string::npos)
      << error();
  void *mine = dlopen(FAKE_MODEL_OK, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(mine, nullptr) << dlerror();
  ASSERT_EQ(nnapi_rt_model_open_loaded(FAKE_MODEL_OK, &model), NNAPI_RT_OK)
      << error();
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {};
  ASSERT_EQ(runScaled(x, -1, y), NNAPI_RT_OK) << error();
  EXPECT_EQ(y[0], -1.0f);
  // The model holds a reference of its own: the library stays loaded after
  // the loader's is dropped.
  dlclose(mine);
  ASSERT_EQ(runScaled(x, 2, y), NNAPI_RT_OK) << error();
  EXPECT_EQ(y[1], 4.0f);
  EXPECT_EQ(nnapi_rt_model_open_loaded(nullptr, &model),
            NNAPI_RT_INVALID_ARGUMENT);
}

} // namespace
