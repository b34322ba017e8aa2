# Declarations of core/_bitwords.h for the compiled kernels (one implementation for both).
from libc.stdint cimport uint64_t

cdef extern from "_bitwords.h":
    int mb_to_words(object v, uint64_t* w)
    object mb_from_words(const uint64_t* w)
    int _ctz "mb_ctz"(uint64_t x) nogil
    int _clz "mb_clz"(uint64_t x) nogil
    int _popcount "mb_popcount"(uint64_t x) nogil
