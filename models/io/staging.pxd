# Types for compiling staging.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): staging.py is the one source. Staging is
# the volume's state (VolumeIO, models/io/volume.py, adds only methods): its
# attributes are C fields of one extension type, read by the compiled
# channel program without a dictionary look-up.


from models.io.backend cimport Backend
from models.io.cache cimport CacheDirectory, CacheStats
from models.io.request cimport IOResult
from models.io.paths cimport PathGroup
from models.io.trace_io cimport IOTrace


cdef class Staging:
    # set by VolumeIO.__init__
    cdef public object engine, name, cu, device, protocol, channel, aliases
    cdef public Backend backend
    cdef public object max_addresses, volume
    cdef public unsigned long long full_mask
    cdef public long long record_bytes
    cdef public IOTrace tr
    cdef public CacheStats stats
    # The unit's cache directory (``cu.cache``, which never changes), typed.
    cdef public CacheDirectory _cache
    cdef public PathGroup paths
    cdef public IOResult totals
    cdef public bint zhpf, lpo, seq_detect
    cdef public long long kb
    cdef public long rpt, staging
    cdef public double link_s_per_record, conn_extra, start_s, write_disc, exposures, reserved
    cdef public long long requests, completed, path_waits, amp_waits
    cdef public set _lpo_staged
    cdef public bytearray _lpo_bits
    cdef public long long _lpo_top
    cdef public dict _streams
    cdef public tuple _list_run
    cdef public long long _seq_staged_to, _stripe_tracks, _prestage_tracks
    # Destages booked and not yet known to have started (models/io/writes.py).
    cdef public dict _destaging
    cdef public long long _destaging_limit
    # Sequential writes (models/io/writes.py): stripe rows gathering their
    # writes, and the record after the volume's last write.
    cdef public dict _open_rows
    cdef public long long _write_next
    cdef object __weakref__
    # Sequential detection's streams (compiled): last track, count, whether
    # its last record was read, density, age; ``_sf``/``_s_was`` are
    # ``_stream_read``'s second and third results.
    cdef long long _st_track[64]
    cdef long _st_count[64]
    cdef bint _st_last[64]
    cdef double _st_dens[64]
    cdef unsigned long long _st_stamp[64]
    cdef int _st_n
    cdef unsigned long long _st_clock
    cdef public double _sf
    # The constants the channel program reads, as the volume is built
    # (models/io/volume.py: VolumeIO.__init__).
    cdef public double _tcw, _slot, _address, _seq_alpha
    cdef public long _seq_trigger, _seq_streams
    cdef public long _s_was

    cpdef double _stage(self, double t, long long track, unsigned long long mask, long mode,
                        IOResult res) except? -1.0
    cpdef list _lpo_schedule(self, double t, groups, IOResult res, bint list_prefetch=*)
    cpdef long _seq_count_top(self) except? -1
    cpdef tuple _stream_behind(self, track)
    cdef long _stream_read(self, long long track, bint first_in, bint last_in, double x, long top,
                           double alpha, long limit) except? -1
    cdef void _st_forget(self, int i) noexcept
    cpdef long _degree_depth(self, double density)
    cpdef _list_detect(self, double t, groups)
    cpdef bint _lpo_stages(self, groups)
    cdef bint _lpo_revisit(self, long long track) except -1
    cdef int _lpo_mark(self, long long track) except -1
    cpdef bint _in_stream(self, track)
    cpdef _amp_wait(self)
    cpdef _prestage(self, double t, long long track, long depth)


cpdef double _run_ready(list batch, Py_ssize_t i) except? -1.0

cdef long _RECORD, _PARTIAL, _FULL
cdef long _SET_BYTES_A_TRACK, _SET_TRACKS
