# Types for compiling channel.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): channel.py is the one source. Its
# constants stay module globals (bench/sensitivity.py patches them).

from models.io.cache cimport _popcount


cpdef tuple program_ius(groups, bint zhpf, bint list_prefetch, long rpt)
cpdef long runs(mask) except? -1
cpdef long addresses(groups) except? -1
cpdef long lowest(mask) except? -2
cpdef double command_mode_cost(tuple groups_prev_end, track, mask, long rpt) except? -1.0
cpdef double command_mode_list_cost(prev_track, track, mask) except? -1.0
