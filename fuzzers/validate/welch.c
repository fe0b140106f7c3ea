// SPDX-License-Identifier: GPL-2.0
/* Welch's t-test, with the t distribution from the incomplete beta function. */
#include <math.h>

#include "validate/validate.h"

/* Continued fraction of I_x(a, b) (modified Lentz), for x < (a + 1) / (a + b + 2). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

double mmf_ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double mmf_welch_p(const struct mmf_stats *a, const struct mmf_stats *b)
{
	double va, vb, se2, t, df;

	if (a->n < 2 || b->n < 2)
		return 1;
	va = a->stddev * a->stddev / a->n;
	vb = b->stddev * b->stddev / b->n;
	se2 = va + vb;
	if (se2 == 0)
		return a->mean == b->mean ? 1 : 0;
	t = (a->mean - b->mean) / sqrt(se2);
	df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	return mmf_ibeta(df / 2, 0.5, df / (df + t * t));
}

double mmf_t_quantile(double df, double p)
{
	double lo = 0, hi = 1e6;

	/* The two-sided tail I_{df/(df+t^2)}(df/2, 1/2) falls as t grows. */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double t = (lo + hi) / 2;

		if (mmf_ibeta(df / 2, 0.5, df / (df + t * t)) > p)
			lo = t;
		else
			hi = t;
	}
	return (lo + hi) / 2;
}

int mmf_welch_interval(const struct mmf_stats *a, const struct mmf_stats *b, double alpha,
		       double *lo, double *hi)
{
	double va, vb, se2, df, q, d;

	if (a->n < 2 || b->n < 2)
		return -1;
	va = a->stddev * a->stddev / a->n;
	vb = b->stddev * b->stddev / b->n;
	se2 = va + vb;
	d = b->mean - a->mean;
	if (se2 == 0) {
		*lo = *hi = d;
		return 0;
	}
	df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	q = mmf_t_quantile(df, alpha);
	*lo = d - q * sqrt(se2);
	*hi = d + q * sqrt(se2);
	return 0;
}
