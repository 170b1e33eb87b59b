/* Fake NCCL: the data types and reduction ops. Integers wrap (unsigned arithmetic); the 16- and
 * 8-bit floating types are reduced in float and rounded to nearest even on every step, as a
 * device adding two halves does; the 8-bit floats saturate to their largest finite value (CUDA's
 * default __NV_SATFINITE conversion). */
#include "fake_nccl.h"

#include <math.h>
#include <string.h>

size_t fake_type_size(ncclDataType_t t) {
    switch (t) {
        case ncclInt8: case ncclUint8: case ncclFloat8e4m3: case ncclFloat8e5m2: return 1;
        case ncclFloat16: case ncclBfloat16: return 2;
        case ncclInt32: case ncclUint32: case ncclFloat32: return 4;
        case ncclInt64: case ncclUint64: case ncclFloat64: return 8;
        default: return 0;
    }
}

/* A small binary float: exp_bits exponent bits, man_bits mantissa bits; ieee: the all-ones
 * exponent is inf/NaN (half, bf16, e5m2); e4m3 has no inf and one NaN pattern (S.1111.111). */
struct small_float {
    int exp_bits, man_bits, ieee;
};
static const struct small_float HALF = {5, 10, 1}, BF16 = {8, 7, 1}, E4M3 = {4, 3, 0}, E5M2 = {5, 2, 1};

static float decode(uint32_t bits, struct small_float f) {
    int bias = (1 << (f.exp_bits - 1)) - 1;
    uint32_t sign = bits >> (f.exp_bits + f.man_bits) & 1;
    uint32_t e = bits >> f.man_bits & ((1u << f.exp_bits) - 1);
    uint32_t m = bits & ((1u << f.man_bits) - 1);
    float v;
    if (f.ieee && e == (1u << f.exp_bits) - 1) v = m ? NAN : INFINITY;
    else if (!f.ieee && e == (1u << f.exp_bits) - 1 && m == (1u << f.man_bits) - 1) v = NAN;
    else if (e == 0) v = ldexpf((float)m, 1 - bias - f.man_bits);
    else v = ldexpf((float)(m | 1u << f.man_bits), (int)e - bias - f.man_bits);
    return sign ? -v : v;
}

/* Round to nearest even; overflow gives inf (ieee, unless saturate) or the largest finite. */
static uint32_t encode(float v, struct small_float f, int saturate) {
    int bias = (1 << (f.exp_bits - 1)) - 1;
    uint32_t sign = signbit(v) ? 1u << (f.exp_bits + f.man_bits) : 0;
    uint32_t exp_all = (1u << f.exp_bits) - 1, man_all = (1u << f.man_bits) - 1;
    uint32_t max_finite = f.ieee ? ((exp_all - 1) << f.man_bits | man_all) : (exp_all << f.man_bits | (man_all - 1));
    if (isnan(v)) return sign | (f.ieee ? exp_all << f.man_bits | 1u << (f.man_bits - 1) : exp_all << f.man_bits | man_all);
    double a = fabs((double)v);
    if (isinf(v) && f.ieee && !saturate) return sign | exp_all << f.man_bits;
    int min_exp = 1 - bias; /* of normal numbers */
    int e;
    frexp(a, &e);
    e -= 1; /* a = 1.x * 2^e */
    if (a == 0) return sign;
    int scale_exp = (e < min_exp ? min_exp : e) - f.man_bits;
    double scaled = ldexp(a, -scale_exp); /* the mantissa as an integer, with fraction */
    double r = nearbyint(scaled);         /* default rounding mode: to nearest even */
    uint64_t mant = (uint64_t)r;
    int exp_field;
    if (e < min_exp) { /* subnormal, may round up into the normals */
        exp_field = mant >> f.man_bits ? 1 : 0;
        mant &= man_all;
    } else {
        if (mant >> (f.man_bits + 1)) { /* rounded up to the next binade */
            mant >>= 1;
            e++;
        }
        exp_field = e + bias;
        mant &= man_all;
    }
    uint32_t bits = (uint32_t)exp_field << f.man_bits | (uint32_t)mant;
    if (exp_field > (int)(max_finite >> f.man_bits) || bits > max_finite) {
        return sign | ((f.ieee && !saturate) ? exp_all << f.man_bits : max_finite);
    }
    return sign | bits;
}

static float apply_f(float a, float b, ncclRedOp_t op) {
    switch (op) {
        case ncclProd: return a * b;
        case ncclMax: return (isnan(a) || isnan(b)) ? NAN : (a > b ? a : b);
        case ncclMin: return (isnan(a) || isnan(b)) ? NAN : (a < b ? a : b);
        default: return a + b; /* sum, avg */
    }
}

static double apply_d(double a, double b, ncclRedOp_t op) {
    switch (op) {
        case ncclProd: return a * b;
        case ncclMax: return (isnan(a) || isnan(b)) ? NAN : (a > b ? a : b);
        case ncclMin: return (isnan(a) || isnan(b)) ? NAN : (a < b ? a : b);
        default: return a + b;
    }
}

#define REDUCE_INT(T, U)                                                                          \
    do {                                                                                          \
        T *a = acc;                                                                               \
        const T *b = x;                                                                           \
        for (size_t i = 0; i < count; i++) {                                                      \
            switch (op) {                                                                         \
                case ncclProd: a[i] = (T)((U)a[i] * (U)b[i]); break;                              \
                case ncclMax: a[i] = a[i] > b[i] ? a[i] : b[i]; break;                            \
                case ncclMin: a[i] = a[i] < b[i] ? a[i] : b[i]; break;                            \
                default: a[i] = (T)((U)a[i] + (U)b[i]); break;                                    \
            }                                                                                     \
        }                                                                                         \
    } while (0)

static void reduce_small(void *acc, const void *x, size_t count, struct small_float f, int bytes, ncclRedOp_t op) {
    for (size_t i = 0; i < count; i++) {
        uint32_t a = 0, b = 0;
        memcpy(&a, (char *)acc + i * bytes, bytes);
        memcpy(&b, (const char *)x + i * bytes, bytes);
        uint32_t r = encode(apply_f(decode(a, f), decode(b, f), op), f, bytes == 1);
        memcpy((char *)acc + i * bytes, &r, bytes);
    }
}

void fake_reduce(void *acc, const void *x, size_t count, ncclDataType_t t, ncclRedOp_t op) {
    switch (t) {
        case ncclInt8: REDUCE_INT(int8_t, uint8_t); break;
        case ncclUint8: REDUCE_INT(uint8_t, uint32_t); break;
        case ncclInt32: REDUCE_INT(int32_t, uint32_t); break;
        case ncclUint32: REDUCE_INT(uint32_t, uint32_t); break;
        case ncclInt64: REDUCE_INT(int64_t, uint64_t); break;
        case ncclUint64: REDUCE_INT(uint64_t, uint64_t); break;
        case ncclFloat32: {
            float *a = acc;
            const float *b = x;
            for (size_t i = 0; i < count; i++) a[i] = apply_f(a[i], b[i], op);
            break;
        }
        case ncclFloat64: {
            double *a = acc;
            const double *b = x;
            for (size_t i = 0; i < count; i++) a[i] = apply_d(a[i], b[i], op);
            break;
        }
        case ncclFloat16: reduce_small(acc, x, count, HALF, 2, op); break;
        case ncclBfloat16: reduce_small(acc, x, count, BF16, 2, op); break;
        case ncclFloat8e4m3: reduce_small(acc, x, count, E4M3, 1, op); break;
        case ncclFloat8e5m2: reduce_small(acc, x, count, E5M2, 1, op); break;
        default: break;
    }
}

/* ncclAvg: the sum divided by the number of ranks (integers: truncated toward zero). */
#define AVG_INT(T)                                                                                \
    do {                                                                                          \
        T *a = acc;                                                                               \
        for (size_t i = 0; i < count; i++) a[i] = (T)(a[i] / (T)n);                               \
    } while (0)

void fake_finish_avg(void *acc, size_t count, ncclDataType_t t, int n) {
    struct small_float f = HALF;
    int bytes = 2;
    switch (t) {
        case ncclInt8: AVG_INT(int8_t); return;
        case ncclUint8: AVG_INT(uint8_t); return;
        case ncclInt32: AVG_INT(int32_t); return;
        case ncclUint32: AVG_INT(uint32_t); return;
        case ncclInt64: AVG_INT(int64_t); return;
        case ncclUint64: AVG_INT(uint64_t); return;
        case ncclFloat32: { float *a = acc; for (size_t i = 0; i < count; i++) a[i] /= (float)n; return; }
        case ncclFloat64: { double *a = acc; for (size_t i = 0; i < count; i++) a[i] /= n; return; }
        case ncclFloat16: break;
        case ncclBfloat16: f = BF16; break;
        case ncclFloat8e4m3: f = E4M3; bytes = 1; break;
        case ncclFloat8e5m2: f = E5M2; bytes = 1; break;
        default: return;
    }
    for (size_t i = 0; i < count; i++) {
        uint32_t a = 0;
        memcpy(&a, (char *)acc + i * bytes, bytes);
        uint32_t r = encode(decode(a, f) / (float)n, f, bytes == 1);
        memcpy((char *)acc + i * bytes, &r, bytes);
    }
}
