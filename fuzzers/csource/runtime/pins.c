// SPDX-License-Identifier: GPL-2.0
/* This process's pipes and ring (rt_pins_own(): a fork child's are its own). */
static struct rt_pins pins;
