// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self test: a module whose only job is to WARN at load, so that
 * the test runner proves it turns a kernel splat into a test failure.
 */

#include <linux/module.h>
#include <linux/bug.h>

static int __init nvm_splat_test_init(void)
{
	pr_info("nvm_splat_test: triggering a deliberate warning\n");
	WARN_ON(1);
	return 0;
}

static void __exit nvm_splat_test_exit(void)
{
}

module_init(nvm_splat_test_init);
module_exit(nvm_splat_test_exit);
MODULE_DESCRIPTION("LightNVM test harness: deliberate WARN_ON at load");
MODULE_LICENSE("GPL");
