/*
 * The least time the HRV frequency family can take per 5-minute window on this machine
 * while hrv.csv keeps its bits: the parts whose every step waits on the one before, in
 * the order of operations the toolkit uses (so that its values, to the bit, follow), and
 * the FFT. `make bench-hrv` builds and runs it beside NeuroKit2's time per window.
 *
 *   frequency_floor [samples knots segment]   (defaults 1200 375 1024: 300 s at 4 Hz,
 *                                              about 0.8 s a beat, one 256-s Welch segment)
 *
 * Prints one line per part and their sum, microseconds, each the median of 15 batches.
 * The parts:
 * - the smoothness-priors solve (Tarvainen et al. 2002) as Signal/Detrending.swift takes
 *   it: forward y[i] = (z[i] - e2[i]·y[i-2]) - e1[i]·y[i-1], then backward the same: each
 *   step a multiply and a subtraction after the step before;
 * - the natural cubic spline's twisted elimination (Signal/CubicSpline.swift): two chains
 *   of a multiply, a subtraction, a division and a multiply per knot, then the
 *   back-substitution, a multiply and a subtraction per knot;
 * - FFTW's real transform of one segment, planned as the toolkit plans it (FFTW_ESTIMATE).
 * Nothing else the family does (the 1,200 spline samples, the taper, the band sums) is
 * counted: each could, at best, run beside these chains.
 */
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* malloc's result, or the program stops with a message when memory runs out. */
static void *need(void *p) {
    if (!p) {
        fprintf(stderr, "frequency_floor: out of memory\n");
        exit(2);
    }
    return p;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median over 15 batches of `reps` calls of `body`, microseconds per call. */
#define MEDIAN_US(reps, body)                                            \
    ({                                                                   \
        double batch[15];                                                \
        for (int b_ = 0; b_ < 15; b_++) {                                \
            double t0_ = now_s();                                        \
            for (int r_ = 0; r_ < (reps); r_++) { body; }                \
            batch[b_] = (now_s() - t0_) / (reps) * 1e6;                  \
        }                                                                \
        qsort(batch, 15, sizeof batch[0], by_value);                     \
        batch[7];                                                        \
    })

/* The LDLᵀ rows of I + λ²D₂ᵀD₂ far from its end (Detrending.swift's generic rows). */
static void factor(int n, double lambda, double *inverse_d, double *e1, double *e2) {
    double l2 = lambda * lambda, *d = need(malloc(sizeof(double) * n));
    for (int i = 0; i < n; i++) {
        double a0 = 1 + (i >= 2 ? l2 : 0) + (i >= 1 ? 4 * l2 : 0) + l2;
        double a1 = (i >= 2 ? -2 * l2 : 0) + (i >= 1 ? -2 * l2 : 0);
        e2[i] = i >= 2 ? l2 / d[i - 2] : 0;
        e1[i] = i >= 1 ? (a1 - (i >= 2 ? e2[i] * e1[i - 1] * d[i - 2] : 0)) / d[i - 1] : 0;
        d[i] = a0 - (i >= 1 ? e1[i] * e1[i] * d[i - 1] : 0) - (i >= 2 ? e2[i] * e2[i] * d[i - 2] : 0);
        inverse_d[i] = 1 / d[i];
    }
    free(d);
}

static void detrend(int n, double *z, double *w, const double *inverse_d, const double *e1, const double *e2) {
    double y2 = z[0], y1 = z[1] - e1[1] * y2;
    w[0] = y2 * inverse_d[0];
    w[1] = y1 * inverse_d[1];
    for (int i = 2; i < n; i++) {
        double yi = (z[i] - e2[i] * y2) - e1[i] * y1;
        w[i] = yi * inverse_d[i];
        y2 = y1; y1 = yi;
    }
    double t2 = w[n - 1], t1 = w[n - 2] - e1[n - 1] * t2;
    z[n - 1] -= t2;
    z[n - 2] -= t1;
    for (int i = n - 3; i >= 0; i--) {
        double ti = (w[i] - e2[i + 2] * t2) - e1[i + 1] * t1;
        z[i] -= ti;
        t2 = t1; t1 = ti;
    }
}

static void spline(int n, const double *h, const double *slope, double *c, double *d, double *m) {
    int k = (n - 1) / 2, top = k, bottom = n - 2 - k, steps = top > bottom ? top : bottom;
    double c_up = 0, d_up = 0, c_down = 0, d_down = 0;
    for (int t = 0; t < steps; t++) {
        if (t < top) {
            int i = 1 + t;
            double inverse = 1 / (2 * (h[i - 1] + h[i]) - h[i - 1] * c_up);
            c_up = h[i] * inverse;
            d_up = (6 * (slope[i] - slope[i - 1]) - h[i - 1] * d_up) * inverse;
            c[i] = c_up; d[i] = d_up;
        }
        if (t < bottom) {
            int i = n - 2 - t;
            double inverse = 1 / (2 * (h[i - 1] + h[i]) - h[i] * c_down);
            c_down = h[i - 1] * inverse;
            d_down = (6 * (slope[i] - slope[i - 1]) - h[i] * d_down) * inverse;
            c[i] = c_down; d[i] = d_down;
        }
    }
    m[k] = (d[k] - c[k] * d[k + 1]) / (1 - c[k] * c[k + 1]);
    m[k + 1] = d[k + 1] - c[k + 1] * m[k];
    for (int t = 1; t < steps; t++) {
        if (k - t >= 1) m[k - t] = d[k - t] - c[k - t] * m[k - t + 1];
        if (k + 1 + t <= n - 2) m[k + 1 + t] = d[k + 1 + t] - c[k + 1 + t] * m[k + t];
    }
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1200, knots = argc > 2 ? atoi(argv[2]) : 375;
    int seg = argc > 3 ? atoi(argv[3]) : 1024;
    if (n < 3 || knots < 4 || seg < 2) {
        fprintf(stderr, "frequency_floor: samples >= 3, knots >= 4 and segment >= 2 needed\n");
        return 2;
    }
    double *z = need(malloc(sizeof(double) * n)), *w = need(malloc(sizeof(double) * n));
    double *inverse_d = need(malloc(sizeof(double) * n)), *e1 = need(malloc(sizeof(double) * n)), *e2 = need(malloc(sizeof(double) * n));
    factor(n, 500, inverse_d, e1, e2);
    /* An NN series about 800 ms: the values only keep the arithmetic away from denormals. */
    double *h = need(malloc(sizeof(double) * knots)), *slope = need(malloc(sizeof(double) * knots));
    double *c = need(calloc(knots, sizeof(double))), *d = need(calloc(knots, sizeof(double))), *m = need(calloc(knots, sizeof(double)));
    for (int i = 0; i < knots; i++) {
        h[i] = 800 + 40 * ((i * 7919) % 11) / 10.0;
        slope[i] = 0.05 * (((i * 104729) % 13) - 6);
    }
    double *in = need(fftw_alloc_real(seg));
    fftw_complex *out = need(fftw_alloc_complex(seg / 2 + 1));
    fftw_plan plan = fftw_plan_dft_r2c_1d(seg, in, out, FFTW_ESTIMATE);
    for (int i = 0; i < seg; i++) in[i] = 30 * ((i * 31) % 17 - 8);
    volatile double sink = 0;
    /* The solve works in place, so each call starts from a fresh copy of the series. */
    double *series = need(malloc(sizeof(double) * n));
    for (int i = 0; i < n; i++) series[i] = 800 + 25 * ((i * 7) % 9);
    double detrend_us = MEDIAN_US(2000, {
        memcpy(z, series, sizeof(double) * n);
        detrend(n, z, w, inverse_d, e1, e2);
        sink += z[n / 2];
    });
    double copy_us = MEDIAN_US(2000, { memcpy(z, series, sizeof(double) * n); sink += z[n / 2]; });
    double spline_us = MEDIAN_US(5000, { spline(knots, h, slope, c, d, m); sink += m[knots / 2]; });
    double fft_us = MEDIAN_US(5000, { fftw_execute_dft_r2c(plan, in, out); sink += out[1][0]; });
    detrend_us -= copy_us;
    printf("smoothness-priors detrending, %d samples (two chains of %d dependent steps): %.2f µs\n", n, n, detrend_us);
    printf("cubic spline elimination and back-substitution, %d knots: %.2f µs\n", knots, spline_us);
    printf("FFTW real transform of %d samples (FFTW_ESTIMATE plan): %.2f µs\n", seg, fft_us);
    printf("sum: %.2f µs\n", detrend_us + spline_us + fft_us);
    fftw_destroy_plan(plan);
    fftw_free(in);
    fftw_free(out);
    return sink == 12345.0;  /* never: keeps the work */
}
