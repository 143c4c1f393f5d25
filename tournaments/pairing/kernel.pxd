# Cython's declarations for kernel.py, read only by the compiled build (smashup/engine/native.py);
# Python ignores this file. The arrays are read as typed memoryviews (int64 counts and indices,
# float64 costs, near as bytes) and every loop variable is a C integer or double, so a tabu step
# of a small event is plain machine loops.
cimport cython
from libc.stdint cimport int64_t

cdef double EPS

@cython.locals(n=Py_ssize_t, checked=bint, width=Py_ssize_t, p=Py_ssize_t, g=Py_ssize_t,
               value=double, count=Py_ssize_t, i=Py_ssize_t, f=int64_t, leave=double[::1],
               limit=double, evaluations=Py_ssize_t, found=bint, chosen_delta=double,
               lowest=double, chosen_x=Py_ssize_t, chosen_y=Py_ssize_t, ties=Py_ssize_t,
               x=Py_ssize_t, gx=Py_ssize_t, x_tabu=bint, s=Py_ssize_t, y=Py_ssize_t,
               gy=Py_ssize_t, into_x=double, into_y=double, delta=double)
cpdef tuple best_small_move(list trouble, const int64_t[:] where, const int64_t[:] order,
                            const int64_t[:] slot_group, const unsigned char[:, :] near,
                            const int64_t[:, :] metg, const double[:, :] side,
                            const double[:, :] met_cost, const int64_t[:, :] held,
                            const int64_t[:, :] factions, int64_t copies, double repeat,
                            double clash, const int64_t[:] tabu_until, int64_t step,
                            double current, double best, object rng)

@cython.locals(count=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, f=int64_t, at=int64_t)
cdef inline Py_ssize_t _clashes_in(const int64_t[:, :] held, const int64_t[:, :] factions,
                            Py_ssize_t width, int64_t copies, Py_ssize_t g, Py_ssize_t into,
                            Py_ssize_t out) noexcept

@cython.locals(n=Py_ssize_t, checked=bint, width=Py_ssize_t, seats=Py_ssize_t, k=Py_ssize_t,
               side=Py_ssize_t, out=Py_ssize_t, into=Py_ssize_t, g=Py_ssize_t, at=Py_ssize_t,
               count=int64_t, total=double, lowest=double, seated=Py_ssize_t, i=Py_ssize_t,
               j=Py_ssize_t, p=Py_ssize_t, q=Py_ssize_t, d=double, cost=double, unfair=double,
               clashes=int64_t, f=int64_t, gone=int64_t)
cpdef pair_table_costs(const int64_t[:] xs, const int64_t[:] ys, const int64_t[:] where,
                       const int64_t[:] seat, const int64_t[:, :] rows, const int64_t[:, :] metg,
                       const int64_t[:] both, list repeats, list clash_counts,
                       const int64_t[:, :] held, const int64_t[:, :] factions, int64_t copies,
                       const double[:] points, const double[:] first_pen, const double[:] short_pen,
                       Py_ssize_t table_size, double repeat, double spread, double clash,
                       double[:] cost_a, double[:] cost_b)

@cython.locals(held=Py_ssize_t, i=Py_ssize_t)
cpdef Py_ssize_t scan_choice(const double[:] values, Py_ssize_t lo, Py_ssize_t hi)
