/*
 * <kunit/test.h> in lockstep's kernel environment: KUnit in user space, so
 * that a tree's own suites (lib/crypto/tests/<algorithm>_kunit.c) build unchanged
 * into a module and run in every environment lockstep has, a CPU model a
 * process instead of a kernel boot. It keeps KUnit's shapes (struct kunit,
 * kunit_case, kunit_suite, parameterised cases, resources) and its
 * semantics: an EXPECT records a failure and goes on, an ASSERT or a
 * kunit_skip() ends the case (here by longjmp, where the kernel ends the
 * case's thread), and each case's actions run when it ends. The runtime,
 * which also writes the KTAP the kernel would, is trees/support/kunit.c.
 */
#ifndef LOCKSTEP_KUNIT_TEST_H
#define LOCKSTEP_KUNIT_TEST_H

#include "../../kernel_library.h"

#include <setjmp.h>

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

#define KUNIT_PARAM_DESC_SIZE 128
#define KUNIT_LOG_SIZE 8192
#define KUNIT_MAX_ACTIONS 32

typedef void(kunit_action_t)(void *);

struct kunit {
	const char *name;          /* the case's */
	const void *param_value;   /* the parameter of a parameterised case */
	int param_index;
	void *priv;
	enum kunit_status status;
	char status_comment[256];  /* why it skipped */
	char log[KUNIT_LOG_SIZE];  /* KTAP diagnostic lines, each "# ..." */
	size_t log_len;
	jmp_buf *end;              /* where an ASSERT or a skip ends the case */
	struct {
		kunit_action_t *action;
		void *ctx;
	} actions[KUNIT_MAX_ACTIONS];
	int action_count;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(struct kunit *test, const void *prev, char *desc);
	int (*param_init)(struct kunit *test);
	void (*param_exit)(struct kunit *test);
};

struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(test_name) {.run_case = test_name, .name = #test_name}
#define KUNIT_CASE_SLOW(test_name) KUNIT_CASE(test_name)
#define KUNIT_CASE_PARAM(test_name, gen_params) \
	{.run_case = test_name, .name = #test_name, .generate_params = gen_params}

/* A parameter for each element of `array`, described by get_desc. */
#define KUNIT_ARRAY_PARAM(name, array, get_desc)                                            \
	static const void *name##_gen_params(struct kunit *test, const void *prev, char *desc) \
	{                                                                                       \
		__typeof__((array)[0]) *next_ = prev ? ((__typeof__(next_))prev) + 1 : (array);    \
		void (*get_desc_)(__typeof__(next_), char *) = get_desc;                         \
		(void)test;                                                                     \
		if (next_ - (array) >= (long)ARRAY_SIZE(array))                                 \
			return NULL;                                                            \
		if (get_desc_)                                                                  \
			get_desc_(next_, desc);                                                 \
		return next_;                                                                   \
	}
#define KUNIT_ARRAY_PARAM_DESC(name, array, desc_member)                                     \
	static const void *name##_gen_params(struct kunit *test, const void *prev, char *desc) \
	{                                                                                       \
		__typeof__((array)[0]) *next_ = prev ? ((__typeof__(next_))prev) + 1 : (array);    \
		(void)test;                                                                     \
		if (next_ - (array) >= (long)ARRAY_SIZE(array))                                 \
			return NULL;                                                            \
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", next_->desc_member);                \
		return next_;                                                                   \
	}

/* kunit_test_suite(): the suite joins the module's list as it loads. */
void lockstep_kunit_register(struct kunit_suite *suite, const char *file);
#define kunit_test_suites(...)                                                          \
	static void __attribute__((constructor)) lockstep_kunit_register_suites(void)     \
	{                                                                                   \
		struct kunit_suite *suites_[] = {__VA_ARGS__};                              \
		for (size_t i_ = 0; i_ < ARRAY_SIZE(suites_); ++i_)                         \
			lockstep_kunit_register(suites_[i_], __FILE__);                      \
	}
#define kunit_test_suite(suite) kunit_test_suites(&(suite))

/* The runtime's: a diagnostic line, the end of a failed check, a skip. */
void lockstep_kunit_log(struct kunit *test, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lockstep_kunit_check_failed(struct kunit *test, bool assertion, const char *file, int line,
				 const char *expectation, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void lockstep_kunit_memeq_failed(struct kunit *test, bool assertion, const char *file, int line,
				 const char *left_text, const char *right_text, const void *left,
				 const void *right, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 10, 11)));
void kunit_skip(struct kunit *test, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void kunit_mark_skipped(struct kunit *test, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx);
int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action, void *ctx);
void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp);
void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp);
#define kunit_kcalloc(test, n, size, gfp) kunit_kzalloc(test, (n) * (size), gfp)
#define kunit_kmalloc_array(test, n, size, gfp) kunit_kmalloc(test, (n) * (size), gfp)

#define kunit_info(test, fmt, ...) lockstep_kunit_log(test, "# %s: " fmt, (test)->name, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...) kunit_info(test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...) kunit_info(test, fmt, ##__VA_ARGS__)
#define kunit_log(level, test, fmt, ...) lockstep_kunit_log(test, fmt, ##__VA_ARGS__)

/* One check: `expectation` says what was expected, the optional format
 * what the test adds. An ASSERT that fails ends the case. */
#define LOCKSTEP_KUNIT_CHECK(test, assertion, ok, expectation, fmt, ...)                           \
	do {                                                                                      \
		if (!(ok))                                                                        \
			lockstep_kunit_check_failed(test, assertion, __FILE__, __LINE__, expectation, \
						    "%s" fmt, "", ##__VA_ARGS__);                           \
	} while (0)
#define LOCKSTEP_KUNIT_BINARY(test, assertion, left, op, right, fmt, ...)                           \
	do {                                                                                        \
		const __typeof__(left) left_ = (left);                                              \
		const __typeof__(right) right_ = (right);                                           \
		if (!(left_ op right_)) {                                                           \
			char expected_[512];                                                        \
			snprintf(expected_, sizeof expected_,                                       \
				 "Expected %s %s %s, but\n    %s == %lld (0x%llx)\n    %s == %lld (0x%llx)", \
				 #left, #op, #right, #left, (long long)left_,                      \
				 (unsigned long long)left_, #right, (long long)right_,             \
				 (unsigned long long)right_);                                       \
			lockstep_kunit_check_failed(test, assertion, __FILE__, __LINE__, expected_,  \
						    "%s" fmt, "", ##__VA_ARGS__);                         \
		}                                                                                   \
	} while (0)
#define LOCKSTEP_KUNIT_MEMEQ(test, assertion, left, right, size, fmt, ...)                          \
	do {                                                                                        \
		const void *left_ = (left), *right_ = (right);                                     \
		const size_t size_ = (size);                                                        \
		if (memcmp(left_, right_, size_) != 0)                                              \
			lockstep_kunit_memeq_failed(test, assertion, __FILE__, __LINE__, #left, #right, \
						    left_, right_, size_, "%s" fmt, "", ##__VA_ARGS__); \
	} while (0)

#define KUNIT_EXPECT_TRUE_MSG(test, c, fmt, ...) \
	LOCKSTEP_KUNIT_CHECK(test, false, (c), "Expected " #c " to be true, but is false", fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(test, c, fmt, ...) \
	LOCKSTEP_KUNIT_CHECK(test, false, !(c), "Expected " #c " to be false, but is true", fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(test, c, fmt, ...) \
	LOCKSTEP_KUNIT_CHECK(test, true, (c), "Expected " #c " to be true, but is false", fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_FALSE_MSG(test, c, fmt, ...) \
	LOCKSTEP_KUNIT_CHECK(test, true, !(c), "Expected " #c " to be false, but is true", fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_TRUE(test, c) KUNIT_EXPECT_TRUE_MSG(test, c, "")
#define KUNIT_EXPECT_FALSE(test, c) KUNIT_EXPECT_FALSE_MSG(test, c, "")
#define KUNIT_ASSERT_TRUE(test, c) KUNIT_ASSERT_TRUE_MSG(test, c, "")
#define KUNIT_ASSERT_FALSE(test, c) KUNIT_ASSERT_FALSE_MSG(test, c, "")

#define KUNIT_EXPECT_NULL_MSG(test, p, fmt, ...) \
	LOCKSTEP_KUNIT_CHECK(test, false, (p) == NULL, "Expected " #p " == NULL, but is not", fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(test, p, fmt, ...) \
	LOCKSTEP_KUNIT_CHECK(test, false, (p) != NULL, "Expected " #p " != NULL, but is NULL", fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NULL_MSG(test, p, fmt, ...) \
	LOCKSTEP_KUNIT_CHECK(test, true, (p) == NULL, "Expected " #p " == NULL, but is not", fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(test, p, fmt, ...) \
	LOCKSTEP_KUNIT_CHECK(test, true, (p) != NULL, "Expected " #p " != NULL, but is NULL", fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NULL(test, p) KUNIT_EXPECT_NULL_MSG(test, p, "")
#define KUNIT_EXPECT_NOT_NULL(test, p) KUNIT_EXPECT_NOT_NULL_MSG(test, p, "")
#define KUNIT_ASSERT_NULL(test, p) KUNIT_ASSERT_NULL_MSG(test, p, "")
#define KUNIT_ASSERT_NOT_NULL(test, p) KUNIT_ASSERT_NOT_NULL_MSG(test, p, "")
#define KUNIT_EXPECT_NOT_ERR_OR_NULL(test, p) KUNIT_EXPECT_NOT_NULL(test, p)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p) KUNIT_ASSERT_NOT_NULL(test, p)

/* The comparisons, EXPECT and ASSERT, with and without a message. */
#define KUNIT_EXPECT_EQ_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, false, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, false, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, false, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, false, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, false, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, false, l, >=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_EQ_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, true, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, true, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, true, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, true, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, true, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(test, l, r, fmt, ...) LOCKSTEP_KUNIT_BINARY(test, true, l, >=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_EQ(test, l, r) KUNIT_EXPECT_EQ_MSG(test, l, r, "")
#define KUNIT_EXPECT_NE(test, l, r) KUNIT_EXPECT_NE_MSG(test, l, r, "")
#define KUNIT_EXPECT_LT(test, l, r) KUNIT_EXPECT_LT_MSG(test, l, r, "")
#define KUNIT_EXPECT_LE(test, l, r) KUNIT_EXPECT_LE_MSG(test, l, r, "")
#define KUNIT_EXPECT_GT(test, l, r) KUNIT_EXPECT_GT_MSG(test, l, r, "")
#define KUNIT_EXPECT_GE(test, l, r) KUNIT_EXPECT_GE_MSG(test, l, r, "")
#define KUNIT_ASSERT_EQ(test, l, r) KUNIT_ASSERT_EQ_MSG(test, l, r, "")
#define KUNIT_ASSERT_NE(test, l, r) KUNIT_ASSERT_NE_MSG(test, l, r, "")
#define KUNIT_ASSERT_LT(test, l, r) KUNIT_ASSERT_LT_MSG(test, l, r, "")
#define KUNIT_ASSERT_LE(test, l, r) KUNIT_ASSERT_LE_MSG(test, l, r, "")
#define KUNIT_ASSERT_GT(test, l, r) KUNIT_ASSERT_GT_MSG(test, l, r, "")
#define KUNIT_ASSERT_GE(test, l, r) KUNIT_ASSERT_GE_MSG(test, l, r, "")
#define KUNIT_EXPECT_PTR_EQ(test, l, r) KUNIT_EXPECT_EQ(test, (const void *)(l), (const void *)(r))
#define KUNIT_ASSERT_PTR_EQ(test, l, r) KUNIT_ASSERT_EQ(test, (const void *)(l), (const void *)(r))

#define KUNIT_EXPECT_STREQ(test, l, r) \
	LOCKSTEP_KUNIT_CHECK(test, false, !strcmp((l), (r)), "Expected " #l " == " #r " (strings)", "%s", "")
#define KUNIT_ASSERT_STREQ(test, l, r) \
	LOCKSTEP_KUNIT_CHECK(test, true, !strcmp((l), (r)), "Expected " #l " == " #r " (strings)", "%s", "")

#define KUNIT_EXPECT_MEMEQ_MSG(test, l, r, size, fmt, ...) \
	LOCKSTEP_KUNIT_MEMEQ(test, false, l, r, size, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_MEMEQ_MSG(test, l, r, size, fmt, ...) \
	LOCKSTEP_KUNIT_MEMEQ(test, true, l, r, size, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_MEMEQ(test, l, r, size) KUNIT_EXPECT_MEMEQ_MSG(test, l, r, size, "")
#define KUNIT_ASSERT_MEMEQ(test, l, r, size) KUNIT_ASSERT_MEMEQ_MSG(test, l, r, size, "")

#define KUNIT_FAIL(test, fmt, ...) \
	lockstep_kunit_check_failed(test, false, __FILE__, __LINE__, "", "%s" fmt, "", ##__VA_ARGS__)

#endif /* LOCKSTEP_KUNIT_TEST_H */
