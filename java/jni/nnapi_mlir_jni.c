/*===- nnapi_mlir_jni.c - The Java API's native half ----------------------===*
 *
 * JNI functions of org.nnapimlir.Model and org.nnapimlir.NnapiRuntime over
 * the runtime's C API (Model.h, Runtime.h). Plain C: the same file builds
 * with Debian's JDK here and with the NDK for an app. Every failure of the
 * C API becomes an org.nnapimlir.NnapiException carrying the runtime's
 * status and message; nothing here keeps state of its own, so thread safety
 * is the C API's (the Java side orders close() after runs).
 *
 *===----------------------------------------------------------------------===*/

#include "nnapi-mlir/Runtime/Model.h"
#include "nnapi-mlir/Runtime/Runtime.h"

#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXCEPTION_CLASS "org/nnapimlir/NnapiException"

/* Throws NnapiException(status, message). */
static void throwStatus(JNIEnv *env, int32_t status, const char *message) {
  jclass cls = (*env)->FindClass(env, EXCEPTION_CLASS);
  if (!cls)
    return; /* NoClassDefFoundError is pending */
  jmethodID ctor =
      (*env)->GetMethodID(env, cls, "<init>", "(ILjava/lang/String;)V");
  if (!ctor)
    return;
  jstring text = (*env)->NewStringUTF(env, message ? message : "");
  if (!text)
    return;
  jobject e = (*env)->NewObject(env, cls, ctor, (jint)status, text);
  if (e)
    (*env)->Throw(env, (jthrowable)e);
}

/* Throws the C API's last error when `status` is not NNAPI_RT_OK. */
static int failed(JNIEnv *env, int32_t status) {
  if (status == NNAPI_RT_OK)
    return 0;
  throwStatus(env, status, nnapi_rt_last_error());
  return 1;
}

static nnapi_rt_model *modelOf(jlong handle) {
  return (nnapi_rt_model *)(intptr_t)handle;
}

JNIEXPORT jlong JNICALL Java_org_nnapimlir_Model_nativeOpen(JNIEnv *env,
                                                            jclass cls,
                                                            jstring path,
                                                            jboolean loaded) {
  (void)cls;
  if (!path) {
    throwStatus(env, NNAPI_RT_INVALID_ARGUMENT, "the path is null");
    return 0;
  }
  const char *text = (*env)->GetStringUTFChars(env, path, NULL);
  if (!text)
    return 0;
  nnapi_rt_model *model = NULL;
  int32_t status = loaded ? nnapi_rt_model_open_loaded(text, &model)
                          : nnapi_rt_model_open(text, &model);
  (*env)->ReleaseStringUTFChars(env, path, text);
  if (failed(env, status))
    return 0;
  return (jlong)(intptr_t)model;
}

JNIEXPORT jlong JNICALL Java_org_nnapimlir_Model_nativeOpenFd(
    JNIEnv *env, jclass cls, jint fd, jlong offset, jlong length) {
  (void)cls;
  nnapi_rt_model *model = NULL;
  if (failed(env, nnapi_rt_model_open_fd(fd, offset, length, &model)))
    return 0;
  return (jlong)(intptr_t)model;
}

JNIEXPORT void JNICALL Java_org_nnapimlir_Model_nativeClose(JNIEnv *env,
                                                            jclass cls,
                                                            jlong handle) {
  (void)env;
  (void)cls;
  nnapi_rt_model_close(modelOf(handle));
}

/* The model's inputs or outputs as org.nnapimlir.TensorInfo[]. */
JNIEXPORT jobjectArray JNICALL Java_org_nnapimlir_Model_nativeTensors(
    JNIEnv *env, jclass cls, jlong handle, jboolean inputs) {
  (void)cls;
  nnapi_rt_model *model = modelOf(handle);
  int64_t count = inputs ? nnapi_rt_model_num_inputs(model)
                         : nnapi_rt_model_num_outputs(model);
  jclass infoClass = (*env)->FindClass(env, "org/nnapimlir/TensorInfo");
  if (!infoClass)
    return NULL;
  jmethodID ctor = (*env)->GetMethodID(
      env, infoClass, "<init>", "(ILjava/lang/String;Ljava/lang/String;[JJIZ)V");
  if (!ctor)
    return NULL;
  jobjectArray result =
      (*env)->NewObjectArray(env, (jsize)count, infoClass, NULL);
  if (!result)
    return NULL;
  for (int64_t i = 0; i < count; ++i) {
    nnapi_rt_tensor_info info;
    int32_t status = inputs ? nnapi_rt_model_input(model, i, &info)
                            : nnapi_rt_model_output(model, i, &info);
    if (failed(env, status))
      return NULL;
    jstring name = (*env)->NewStringUTF(env, info.name);
    jstring dtype = (*env)->NewStringUTF(env, info.dtype);
    jlongArray dims = (*env)->NewLongArray(env, (jsize)info.rank);
    if (!name || !dtype || !dims)
      return NULL;
    (*env)->SetLongArrayRegion(env, dims, 0, (jsize)info.rank,
                               (const jlong *)info.dims);
    jboolean bound =
        inputs && nnapi_rt_model_input_is_bound(model, i) ? JNI_TRUE
                                                            : JNI_FALSE;
    jobject t = (*env)->NewObject(env, infoClass, ctor, (jint)i, name, dtype,
                                  dims, (jlong)info.bytes,
                                  (jint)info.elementBytes, bound);
    if (!t)
      return NULL;
    (*env)->SetObjectArrayElement(env, result, (jsize)i, t);
    (*env)->DeleteLocalRef(env, t);
    (*env)->DeleteLocalRef(env, name);
    (*env)->DeleteLocalRef(env, dtype);
    (*env)->DeleteLocalRef(env, dims);
  }
  return result;
}

/* Addresses and sizes of `buffers` (direct ByteBuffers; `positions` are
 * their positions, `sizes` their remaining bytes). 0 with an exception
 * pending if one is not direct. */
static int addresses(JNIEnv *env, jobjectArray buffers, jlongArray positions,
                     jlongArray sizes, jsize count, void **pointers,
                     uint64_t *bytes) {
  jlong *pos = (*env)->GetLongArrayElements(env, positions, NULL);
  jlong *len = (*env)->GetLongArrayElements(env, sizes, NULL);
  int ok = pos && len;
  for (jsize i = 0; ok && i < count; ++i) {
    jobject buffer = (*env)->GetObjectArrayElement(env, buffers, i);
    char *base = buffer ? (char *)(*env)->GetDirectBufferAddress(env, buffer)
                        : NULL;
    if (!base) {
      throwStatus(env, NNAPI_RT_INVALID_ARGUMENT,
                  "a buffer is not a direct ByteBuffer");
      ok = 0;
    } else {
      pointers[i] = base + pos[i];
      bytes[i] = (uint64_t)len[i];
    }
    if (buffer)
      (*env)->DeleteLocalRef(env, buffer);
  }
  if (pos)
    (*env)->ReleaseLongArrayElements(env, positions, pos, JNI_ABORT);
  if (len)
    (*env)->ReleaseLongArrayElements(env, sizes, len, JNI_ABORT);
  return ok;
}

/* Runs `model` on the direct buffers given, with the inputs' dimensions
 * `dims` (nnapi_rt_model_run_dims) or without (null: nnapi_rt_model_run);
 * a failure is thrown. */
static void runBuffers(JNIEnv *env, nnapi_rt_model *model,
                       const int64_t *const *dims, jobjectArray inputs,
                       jlongArray inPositions, jlongArray inSizes,
                       jobjectArray outputs, jlongArray outPositions,
                       jlongArray outSizes) {
  jsize numIn = (*env)->GetArrayLength(env, inputs);
  jsize numOut = (*env)->GetArrayLength(env, outputs);
  void **in = calloc((size_t)numIn + 1, sizeof(void *));
  void **out = calloc((size_t)numOut + 1, sizeof(void *));
  uint64_t *inBytes = calloc((size_t)numIn + 1, sizeof(uint64_t));
  uint64_t *outBytes = calloc((size_t)numOut + 1, sizeof(uint64_t));
  if (!in || !out || !inBytes || !outBytes) {
    throwStatus(env, NNAPI_RT_INTERNAL_ERROR, "out of memory");
  } else if (addresses(env, inputs, inPositions, inSizes, numIn, in,
                       inBytes) &&
             addresses(env, outputs, outPositions, outSizes, numOut, out,
                       outBytes)) {
    failed(env, dims ? nnapi_rt_model_run_dims(
                           model, numIn, (const void *const *)in, inBytes,
                           dims, numOut, out, outBytes)
                     : nnapi_rt_model_run(model, numIn,
                                          (const void *const *)in, inBytes,
                                          numOut, out, outBytes));
  }
  free(in);
  free(out);
  free(inBytes);
  free(outBytes);
}

JNIEXPORT void JNICALL Java_org_nnapimlir_Model_nativeRun(
    JNIEnv *env, jclass cls, jlong handle, jobjectArray inputs,
    jlongArray inPositions, jlongArray inSizes, jobjectArray outputs,
    jlongArray outPositions, jlongArray outSizes) {
  (void)cls;
  runBuffers(env, modelOf(handle), NULL, inputs, inPositions, inSizes,
             outputs, outPositions, outSizes);
}

/* Copies the long[][] `dims` (one array per input, of its rank) into one
 * allocation: `rows` points at each input's dimensions. 0 with an
 * exception pending when the count or a rank is wrong. The caller frees
 * *rows. */
static int dimsOf(JNIEnv *env, nnapi_rt_model *model, jobjectArray dims,
                  const int64_t ***rows) {
  int64_t count = nnapi_rt_model_num_inputs(model);
  *rows = NULL;
  if (!dims || (*env)->GetArrayLength(env, dims) != count) {
    throwStatus(env, NNAPI_RT_INVALID_ARGUMENT,
                "one array of dimensions per input is needed");
    return 0;
  }
  int64_t total = 0;
  for (int64_t i = 0; i < count; ++i) {
    nnapi_rt_tensor_info info;
    if (failed(env, nnapi_rt_model_input(model, i, &info)))
      return 0;
    total += info.rank;
  }
  char *block = calloc((size_t)count * sizeof(int64_t *) +
                           (size_t)total * sizeof(int64_t) + 1,
                       1);
  if (!block) {
    throwStatus(env, NNAPI_RT_INTERNAL_ERROR, "out of memory");
    return 0;
  }
  const int64_t **pointers = (const int64_t **)block;
  int64_t *values = (int64_t *)(block + (size_t)count * sizeof(int64_t *));
  for (int64_t i = 0; i < count; ++i) {
    nnapi_rt_tensor_info info;
    nnapi_rt_model_input(model, i, &info);
    jlongArray row = (jlongArray)(*env)->GetObjectArrayElement(env, dims,
                                                               (jsize)i);
    if (!row || (*env)->GetArrayLength(env, row) != info.rank) {
      char message[160];
      snprintf(message, sizeof message,
               "input %lld ('%s') has rank %lld: give that many dimensions",
               (long long)i, info.name, (long long)info.rank);
      throwStatus(env, NNAPI_RT_INVALID_ARGUMENT, message);
      if (row)
        (*env)->DeleteLocalRef(env, row);
      free(block);
      return 0;
    }
    jlong *d = (*env)->GetLongArrayElements(env, row, NULL);
    for (int64_t k = 0; d && k < info.rank; ++k)
      values[k] = (int64_t)d[k];
    if (d)
      (*env)->ReleaseLongArrayElements(env, row, d, JNI_ABORT);
    (*env)->DeleteLocalRef(env, row);
    pointers[i] = values;
    values += info.rank;
  }
  *rows = pointers;
  return 1;
}

JNIEXPORT jboolean JNICALL Java_org_nnapimlir_Model_nativeIsDynamic(
    JNIEnv *env, jclass cls, jlong handle) {
  (void)env;
  (void)cls;
  return nnapi_rt_model_is_dynamic(modelOf(handle)) ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jobjectArray JNICALL Java_org_nnapimlir_Model_nativeOutputDims(
    JNIEnv *env, jclass cls, jlong handle, jobjectArray inputDims) {
  (void)cls;
  nnapi_rt_model *model = modelOf(handle);
  const int64_t **in = NULL;
  if (!dimsOf(env, model, inputDims, &in))
    return NULL;
  int64_t count = nnapi_rt_model_num_outputs(model), total = 0;
  for (int64_t o = 0; o < count; ++o) {
    nnapi_rt_tensor_info info;
    nnapi_rt_model_output(model, o, &info);
    total += info.rank;
  }
  int64_t **out = calloc((size_t)count + 1, sizeof(int64_t *));
  int64_t *values = calloc((size_t)total + 1, sizeof(int64_t));
  jobjectArray result = NULL;
  if (!out || !values) {
    throwStatus(env, NNAPI_RT_INTERNAL_ERROR, "out of memory");
  } else {
    int64_t *next = values;
    for (int64_t o = 0; o < count; ++o) {
      nnapi_rt_tensor_info info;
      nnapi_rt_model_output(model, o, &info);
      out[o] = next;
      next += info.rank;
    }
    if (!failed(env, nnapi_rt_model_output_dims(
                         model, nnapi_rt_model_num_inputs(model), in, count,
                         out))) {
      jclass longArray = (*env)->FindClass(env, "[J");
      result = longArray ? (*env)->NewObjectArray(env, (jsize)count,
                                                  longArray, NULL)
                         : NULL;
      for (int64_t o = 0; result && o < count; ++o) {
        nnapi_rt_tensor_info info;
        nnapi_rt_model_output(model, o, &info);
        jlongArray row = (*env)->NewLongArray(env, (jsize)info.rank);
        if (!row) {
          result = NULL;
          break;
        }
        for (int64_t k = 0; k < info.rank; ++k) {
          jlong v = (jlong)out[o][k];
          (*env)->SetLongArrayRegion(env, row, (jsize)k, 1, &v);
        }
        (*env)->SetObjectArrayElement(env, result, (jsize)o, row);
        (*env)->DeleteLocalRef(env, row);
      }
    }
  }
  free(out);
  free(values);
  free((void *)in);
  return result;
}

JNIEXPORT void JNICALL Java_org_nnapimlir_Model_nativeRunDims(
    JNIEnv *env, jclass cls, jlong handle, jobjectArray inputDims,
    jobjectArray inputs, jlongArray inPositions, jlongArray inSizes,
    jobjectArray outputs, jlongArray outPositions, jlongArray outSizes) {
  (void)cls;
  nnapi_rt_model *model = modelOf(handle);
  const int64_t **dims = NULL;
  if (!dimsOf(env, model, inputDims, &dims))
    return;
  runBuffers(env, model, dims, inputs, inPositions, inSizes, outputs,
             outPositions, outSizes);
  free((void *)dims);
}

JNIEXPORT jstring JNICALL Java_org_nnapimlir_Model_nativeSignature(
    JNIEnv *env, jclass cls, jlong handle) {
  (void)cls;
  return (*env)->NewStringUTF(env, nnapi_rt_model_signature(modelOf(handle)));
}

JNIEXPORT void JNICALL Java_org_nnapimlir_NnapiRuntime_setOption(
    JNIEnv *env, jclass cls, jstring name, jstring value) {
  (void)cls;
  if (!name) {
    throwStatus(env, NNAPI_RT_INVALID_ARGUMENT, "null option name");
    return;
  }
  const char *n = (*env)->GetStringUTFChars(env, name, NULL);
  const char *v =
      n && value ? (*env)->GetStringUTFChars(env, value, NULL) : NULL;
  if (n && (v || !value))
    failed(env, nnapi_rt_set_option(n, v));
  if (v)
    (*env)->ReleaseStringUTFChars(env, value, v);
  if (n)
    (*env)->ReleaseStringUTFChars(env, name, n);
}

JNIEXPORT void JNICALL Java_org_nnapimlir_NnapiRuntime_setHostOnly(
    JNIEnv *env, jclass cls, jboolean hostOnly) {
  (void)env;
  (void)cls;
  nnapi_rt_set_mode(hostOnly ? NNAPI_RT_MODE_HOST_ONLY : NNAPI_RT_MODE_AUTO);
}

JNIEXPORT jboolean JNICALL
Java_org_nnapimlir_NnapiRuntime_isHostOnly(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  return nnapi_rt_get_mode() == NNAPI_RT_MODE_HOST_ONLY ? JNI_TRUE : JNI_FALSE;
}

/* A Java long[2] of two counters (NULL with an exception pending if the
 * array cannot be made). */
static jlongArray longPair(JNIEnv *env, uint64_t first, uint64_t second) {
  jlongArray result = (*env)->NewLongArray(env, 2);
  if (result) {
    jlong values[2] = {(jlong)first, (jlong)second};
    (*env)->SetLongArrayRegion(env, result, 0, 2, values);
  }
  return result;
}

JNIEXPORT jlongArray JNICALL Java_org_nnapimlir_NnapiRuntime_nativeStats(
    JNIEnv *env, jclass cls, jboolean reset) {
  (void)cls;
  uint64_t executions = 0, failures = 0;
  nnapi_rt_get_stats(&executions, &failures);
  if (reset)
    nnapi_rt_reset_stats();
  return longPair(env, executions, failures);
}

JNIEXPORT jlongArray JNICALL Java_org_nnapimlir_NnapiRuntime_nativeBindingStats(
    JNIEnv *env, jclass cls) {
  (void)cls;
  uint64_t memory = 0, pointer = 0;
  nnapi_rt_get_binding_stats(&memory, &pointer);
  return longPair(env, memory, pointer);
}

/* A direct buffer over `bytes` bytes of the runtime's allocator (shared
 * memory from 64 KiB on, which NNAPI maps instead of copying). */
JNIEXPORT jobject JNICALL Java_org_nnapimlir_RuntimeBuffers_nativeAllocate(
    JNIEnv *env, jclass cls, jint bytes) {
  (void)cls;
  if (bytes < 0) {
    throwStatus(env, NNAPI_RT_INVALID_ARGUMENT, "a negative buffer size");
    return NULL;
  }
  void *data = nnapi_rt_alloc(bytes ? (uint64_t)bytes : 1, 64);
  if (!data) {
    throwStatus(env, NNAPI_RT_INTERNAL_ERROR, "out of memory");
    return NULL;
  }
  jobject buffer = (*env)->NewDirectByteBuffer(env, data, (jlong)bytes);
  if (!buffer)
    nnapi_rt_free(data);
  return buffer;
}

JNIEXPORT jlong JNICALL Java_org_nnapimlir_RuntimeBuffers_nativeAddress(
    JNIEnv *env, jclass cls, jobject buffer) {
  (void)cls;
  return (jlong)(intptr_t)(*env)->GetDirectBufferAddress(env, buffer);
}

JNIEXPORT void JNICALL Java_org_nnapimlir_RuntimeBuffers_nativeFree(
    JNIEnv *env, jclass cls, jlong address) {
  (void)env;
  (void)cls;
  nnapi_rt_free((void *)(intptr_t)address);
}

/* The LogListener the runtime's warnings go to, and the VM to reach it
 * from the runtime's threads. Replaced under the runtime's lock, which its
 * calls to the callback hold too. */
static JavaVM *logVM;
static jobject logListener;

#ifdef __ANDROID__
typedef JNIEnv **AttachEnv; /* the NDK's jni.h */
#else
typedef void **AttachEnv;
#endif

static void logToJava(void *user, int32_t level, const char *message) {
  JNIEnv *env = NULL;
  int attached = 0;
  if ((*logVM)->GetEnv(logVM, (void **)&env, JNI_VERSION_1_6) == JNI_EDETACHED) {
    if ((*logVM)->AttachCurrentThread(logVM, (AttachEnv)&env, NULL) != JNI_OK)
      return;
    attached = 1;
  }
  jobject listener = (jobject)user;
  jclass cls = (*env)->GetObjectClass(env, listener);
  jmethodID log =
      cls ? (*env)->GetMethodID(env, cls, "log", "(ILjava/lang/String;)V")
          : NULL;
  jstring text = log ? (*env)->NewStringUTF(env, message) : NULL;
  if (text)
    (*env)->CallVoidMethod(env, listener, log, (jint)level, text);
  /* A listener's exception must not escape into the runtime. */
  if ((*env)->ExceptionCheck(env))
    (*env)->ExceptionClear(env);
  if (text)
    (*env)->DeleteLocalRef(env, text);
  if (cls)
    (*env)->DeleteLocalRef(env, cls);
  if (attached)
    (*logVM)->DetachCurrentThread(logVM);
}

JNIEXPORT void JNICALL Java_org_nnapimlir_NnapiRuntime_setLogListener(
    JNIEnv *env, jclass cls, jobject listener) {
  (void)cls;
  jobject old = logListener;
  logListener = NULL;
  if (listener) {
    if ((*env)->GetJavaVM(env, &logVM) != JNI_OK) {
      throwStatus(env, NNAPI_RT_INTERNAL_ERROR, "no Java VM");
      return;
    }
    logListener = (*env)->NewGlobalRef(env, listener);
    if (!logListener)
      return;
    nnapi_rt_set_log_callback(logToJava, logListener);
  } else {
    nnapi_rt_set_log_callback(NULL, NULL);
  }
  /* No call to the old listener is in flight once the runtime has taken
   * the new one. */
  if (old)
    (*env)->DeleteGlobalRef(env, old);
}

/* Partitions run so far as org.nnapimlir.PartitionInfo[]. */
JNIEXPORT jobjectArray JNICALL
Java_org_nnapimlir_NnapiRuntime_partitions(JNIEnv *env, jclass cls) {
  (void)cls;
  jclass infoClass = (*env)->FindClass(env, "org/nnapimlir/PartitionInfo");
  if (!infoClass)
    return NULL;
  jmethodID ctor = (*env)->GetMethodID(
      env, infoClass, "<init>",
      "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;IJJ"
      "Ljava/lang/String;Ljava/lang/String;)V");
  if (!ctor)
    return NULL;
  int32_t count = nnapi_rt_partition_count();
  jobjectArray result = (*env)->NewObjectArray(env, count, infoClass, NULL);
  if (!result)
    return NULL;
  for (int32_t i = 0; i < count; ++i) {
    nnapi_rt_partition_info info;
    if (failed(env, nnapi_rt_get_partition_info(i, &info)))
      return NULL;
    jstring strings[5] = {
        (*env)->NewStringUTF(env, info.name),
        (*env)->NewStringUTF(env, info.device),
        (*env)->NewStringUTF(env, info.error),
        (*env)->NewStringUTF(env, info.lastFailure),
        (*env)->NewStringUTF(env, info.passedOver)};
    for (int k = 0; k < 5; ++k)
      if (!strings[k])
        return NULL;
    jobject p = (*env)->NewObject(env, infoClass, ctor, strings[0], strings[1],
                                  strings[2], (jint)info.operations,
                                  (jlong)info.executions, (jlong)info.failures,
                                  strings[3], strings[4]);
    if (!p)
      return NULL;
    (*env)->SetObjectArrayElement(env, result, i, p);
    (*env)->DeleteLocalRef(env, p);
    for (int k = 0; k < 5; ++k)
      (*env)->DeleteLocalRef(env, strings[k]);
  }
  return result;
}
