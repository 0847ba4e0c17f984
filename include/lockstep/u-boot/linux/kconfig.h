/*
 * <linux/kconfig.h> in lockstep's U-Boot environment, which U-Boot's build
 * gives every file ahead of its own lines (-include), as lockstep gives it
 * to a tree's front end and glue: IS_ENABLED(CONFIG_FOO) is 1 where the
 * recipe sets CONFIG_FOO (its "config" list, -DCONFIG_FOO=1), else 0, and
 * CONFIG_IS_ENABLED(FOO) asks the same of U-Boot proper (lockstep models
 * no SPL or TPL phase). Macros only: assembly includes it too.
 */
#ifndef LOCKSTEP_UBOOT_KCONFIG_H
#define LOCKSTEP_UBOOT_KCONFIG_H

#define LOCKSTEP_UBOOT_PLACEHOLDER_1 0,
#define LOCKSTEP_UBOOT_SECOND(ignored, value, ...) value
#define LOCKSTEP_UBOOT_IS_SET(option) LOCKSTEP_UBOOT_IS_SET_(option)
#define LOCKSTEP_UBOOT_IS_SET_(value) LOCKSTEP_UBOOT_IS_SET__(LOCKSTEP_UBOOT_PLACEHOLDER_##value)
#define LOCKSTEP_UBOOT_IS_SET__(arg_or_junk) LOCKSTEP_UBOOT_SECOND(arg_or_junk 1, 0, 0)

#define IS_ENABLED(option) LOCKSTEP_UBOOT_IS_SET(option)
#define CONFIG_IS_ENABLED(option) IS_ENABLED(CONFIG_##option)

#endif
