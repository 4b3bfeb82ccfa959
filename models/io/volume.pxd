# Types for compiling volume.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): volume.py is the one source. The
# volume's state is declared on Staging (models/io/staging.pxd).

from models.io.request cimport IOResult
from models.io.paths cimport ChannelPath, PathGroup
from models.io.staging cimport Staging


cdef class VolumeIO(Staging):
    cpdef _add_totals(self, IOResult res)
    cpdef tuple _connect(self, double t, IOResult res, double ius, double nbytes,
                         bint reconnect=*)
    cpdef _release(self, path, double since, double t, IOResult res)
    cpdef double _start(self, double t, IOResult res, t_request=*)
    cpdef double _await(self, double t, track, long n, need, IOResult res,
                        double hold=*, restaged=*, records=*)
    cpdef double _ready(self, double t, track, need, IOResult res)
    cpdef double _stage(self, double t, track, mask, long mode, IOResult res)
