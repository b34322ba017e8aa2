/* Boards of up to 384 cells as six little-endian 64-bit words: the conversions and bit
   counts shared by the compiled kernels (core/_fastgeo.pyx, games/midway/_fastmw.pyx). */
#ifndef MONSTERBALL_BITWORDS_H
#define MONSTERBALL_BITWORDS_H
#include <Python.h>
#include <stdint.h>

/* 0 and the six words of v, or -1 (error cleared) if v is not an int in 0 .. 2**384 - 1. */
static int mb_to_words(PyObject* v, uint64_t* w) {
    if (!PyLong_Check(v)) return -1;
#if PY_VERSION_HEX >= 0x030D0000
    int r = _PyLong_AsByteArray((PyLongObject*)v, (unsigned char*)w, 48, 1, 0, 1);
#else
    int r = _PyLong_AsByteArray((PyLongObject*)v, (unsigned char*)w, 48, 1, 0);
#endif
    if (r < 0) { PyErr_Clear(); return -1; }
    return 0;
}

static PyObject* mb_from_words(const uint64_t* w) {
    return _PyLong_FromByteArray((const unsigned char*)w, 48, 1, 0);
}

static inline int mb_ctz(uint64_t x) { return __builtin_ctzll(x); }
static inline int mb_clz(uint64_t x) { return __builtin_clzll(x); }
static inline int mb_popcount(uint64_t x) { return __builtin_popcountll(x); }

#endif
