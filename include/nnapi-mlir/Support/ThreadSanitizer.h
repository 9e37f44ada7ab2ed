//===- ThreadSanitizer.h - Happens-before edges TSan cannot see -*- C++ -*-===//
//
// pthreadpool (and XNNPACK on top of it) hands work to its threads through
// atomics and futexes in a library ThreadSanitizer does not instrument. Code
// of ours that runs on those threads tells it what the library guarantees:
// the caller's writes happen before a task runs (NNAPI_TSAN_RELEASE before
// handing over, NNAPI_TSAN_ACQUIRE in the task), and every task before the
// call returns (the reverse, on a second address). GCC defines
// __SANITIZE_THREAD__ under -fsanitize=thread; clang only answers
// __has_feature(thread_sanitizer). Elsewhere the macros are nothing.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_SUPPORT_THREADSANITIZER_H
#define NNAPI_MLIR_SUPPORT_THREADSANITIZER_H

#if defined(__SANITIZE_THREAD__)
#define NNAPI_MLIR_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NNAPI_MLIR_TSAN 1
#endif
#endif

#ifdef NNAPI_MLIR_TSAN
#include <sanitizer/tsan_interface.h>
#define NNAPI_TSAN_RELEASE(p) __tsan_release(p)
#define NNAPI_TSAN_ACQUIRE(p) __tsan_acquire(p)
#else
#define NNAPI_TSAN_RELEASE(p) ((void)(p))
#define NNAPI_TSAN_ACQUIRE(p) ((void)(p))
#endif

#endif // NNAPI_MLIR_SUPPORT_THREADSANITIZER_H
