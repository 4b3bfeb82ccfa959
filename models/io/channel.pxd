# Types for compiling channel.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): channel.py is the one source. Its
# constants stay module globals (bench/sensitivity.py patches them).

from models.io.cache cimport _popcount


cdef extern from *:
    int _clz "__builtin_clzll" (unsigned long long) nogil
    int _ctz "__builtin_ctzll" (unsigned long long) nogil


cpdef tuple program_ius(groups, bint zhpf, bint list_prefetch, long rpt)
cdef long program_ius_into(groups, bint zhpf, bint list_prefetch, long rpt,
                          long* records) except? -1
cdef long program_ius_one(long long track, unsigned long long mask, bint zhpf,
                          bint list_prefetch, long rpt, long* records) except? -1
cpdef long runs(unsigned long long mask) noexcept
cpdef long addresses(groups) except? -1
cpdef long lowest(unsigned long long mask) noexcept
cpdef long bits(unsigned long long mask) noexcept
cpdef long top(unsigned long long mask) noexcept
cpdef double command_mode_cost(tuple groups_prev_end, track, mask, long rpt) except? -1.0
cpdef double command_mode_list_cost(prev_track, track, mask) except? -1.0
