# Types for compiling core.py with Cython in pure-Python mode (augmenting
# .pxd). core.py is the one source; this file only declares C types for its
# classes and attributes, plus the two C-API calls the compiled branches use.
# Build: packaging/setup.sh (python setup.py build_ext --inplace).

cimport cython
from cpython.ref cimport PyObject, Py_DECREF, Py_REFCNT
from libc.stdlib cimport free, realloc

cdef extern from "Python.h":
    # 3.10+: resume a generator; 0 = it returned, 1 = it yielded, -1 = error.
    int PyIter_Send(object iter, object arg, PyObject** presult) except -1


cdef inline object _gen_send(object gen, object value, bint* done):
    """Send ``value`` into ``gen``: what it yielded, or (done) what it returned."""
    cdef PyObject* res = NULL
    done[0] = PyIter_Send(gen, value, &res) == 0
    cdef object out = <object>res
    Py_DECREF(out)
    return out


cdef object _deque_append, _deque_popleft
# Module constants the hot paths read as C globals (core.py assigns them).
cdef object _PENDING
cdef int _URGENT, _NORMAL


cdef struct _Entry:
    double t
    long prio
    unsigned long long seq
    Py_ssize_t slot


cdef bint _before(_Entry a, _Entry b) noexcept



# Final (no subclasses): the loop's calls to its own methods and the
# process's are direct C calls the compiler can inline, not vtable look-ups.
@cython.final
cdef class Engine:
    cdef public double now
    cdef public object seed
    cdef public list _heap
    cdef public object _next_seq
    cdef public dict _streams
    cdef public dict _np_streams
    cdef public long long events_run
    cdef dict __dict__
    cdef _Entry* _h
    cdef Py_ssize_t* _free
    cdef Py_ssize_t _n, _cap, _nfree
    cdef unsigned long long _seq
    cdef list _fns, _args, _spare

    cdef int _grow(self) except -1
    cdef int _push(self, double t, long prio, object fn, object arg) except -1
    cdef void _sift_down(self, Py_ssize_t i, Py_ssize_t n) noexcept
    cdef Py_ssize_t _pop(self) noexcept
    cdef void _release_slot(self, Py_ssize_t slot) noexcept
    cdef _drop(self, proc)
    cpdef double peek(self)
    cdef double _run(self, until) except? -1.0


cdef class Step:
    # cpdef: a Python subclass may override it (a compiled one that has no
    # __dict__ is called without a look-up for an override).
    cpdef fire(self, arg)


cdef class Event:
    cdef public Engine engine
    cdef public object value
    cdef public list _waiters
    cpdef succeed(self, value=*)



@cython.final
cdef class Process(Event):
    cdef object _gen
    cdef object _send
    cdef public object name
    cdef object _target
    cdef double _t_queued

    cdef int _start(self, Engine engine, object gen, object name) except -1
    cdef _resume(self, value)
    cdef _finish(self, value)
    cdef _handle(self, cmd)


cdef class Request(Event):
    cdef public Resource resource
    cdef public object priority
    cdef public double t_request
    cdef public double t_grant


cdef class Resource:
    cdef dict __dict__
    cdef public Engine engine
    cdef public long capacity
    cdef public long users
    cdef public object name
    cdef public bint _fifo
    cdef public object _queue
    cdef public double _t_last
    cdef public double busy_area
    cdef public long long requests
    cdef public long long queued_requests
    cdef public double wait_total

    cdef bint _acquire(self, Process proc) except -1
    cpdef bint try_take(self) except -1
    cdef bint _take(self) except -1
    cpdef release(self, Request req=*)
    cdef _give(self)
    cdef _grant(self, double t_queued, wake, Request req)
    cdef _enqueue(self, priority, tuple entry)
    cdef tuple _dequeue(self)
    cdef _withdraw(self, Request req)


cdef class PriorityResource(Resource):
    cdef public long long _order
