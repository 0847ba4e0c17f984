/*
 * The runtime of lockstep's KUnit model (<kunit/test.h> in
 * include/lockstep/kernel), built into a module with the tree's KUnit
 * files: it keeps the suites they register, runs one as the kernel's KUnit
 * executor does, and writes its KTAP as the kernel writes it, so that the
 * kernel's own tools/testing/kunit/kunit_parser.py reads the result.
 */
#include <lockstep/kunit_model.h>
#include <kunit/run-in-irq-context.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>

#define MAX_SUITES 16

static struct registered {
	struct kunit_suite *suite;
	struct lockstep_kunit_suite outside; /* module.h's view of it */
	char file[256];
} suites[MAX_SUITES];
static size_t suite_count;

static int run_suite(const struct lockstep_kunit_suite *s, int number, void (*line)(void *, const char *),
		     void (*result)(void *, const char *, int, const char *), void *arg);

void lockstep_kunit_register(struct kunit_suite *suite, const char *file)
{
	if (suite_count == MAX_SUITES) {
		fprintf(stderr, "lockstep's KUnit model: more than %d suites in one module; %s is left out\n",
			MAX_SUITES, suite->name);
		return;
	}
	struct registered *r = &suites[suite_count++];
	const char *tail = strstr(file, "lib/crypto/");

	r->suite = suite;
	snprintf(r->file, sizeof r->file, "%s", tail ? tail : file);
	r->outside = (struct lockstep_kunit_suite){.opaque = r, .name = suite->name, .file = r->file,
						    .run = run_suite};
}

const struct lockstep_kunit_suite *lockstep_kunit_find(const char *name)
{
	for (size_t i = 0; i < suite_count; ++i)
		if (!strcmp(suites[i].suite->name, name))
			return &suites[i].outside;
	return NULL;
}

/* ---- what a case calls ---- */

static void vlog(struct kunit *test, const char *fmt, va_list ap)
{
	if (test->log_len + 1 >= sizeof test->log)
		return;
	int n = vsnprintf(test->log + test->log_len, sizeof test->log - test->log_len - 1, fmt, ap);

	if (n < 0)
		return;
	test->log_len = strnlen(test->log, sizeof test->log - 1);
	if (test->log_len && test->log[test->log_len - 1] != '\n') {
		test->log[test->log_len++] = '\n';
		test->log[test->log_len] = '\0';
	}
}

void lockstep_kunit_log(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(test, fmt, ap);
	va_end(ap);
}

static void end_case(struct kunit *test) __attribute__((noreturn));
static void end_case(struct kunit *test)
{
	longjmp(*test->end, 1);
}

static void failed(struct kunit *test, bool assertion, const char *file, int line)
{
	const char *tail = strstr(file, "lib/crypto/");

	test->status = KUNIT_FAILURE;
	lockstep_kunit_log(test, "# %s: %s FAILED at %s:%d", test->name, assertion ? "ASSERTION" : "EXPECTATION",
			   tail ? tail : file, line);
}

void lockstep_kunit_check_failed(struct kunit *test, bool assertion, const char *file, int line,
				 const char *expectation, const char *fmt, ...)
{
	va_list ap;

	failed(test, assertion, file, line);
	if (*expectation)
		lockstep_kunit_log(test, "%s", expectation);
	va_start(ap, fmt);
	vlog(test, fmt, ap);
	va_end(ap);
	if (assertion)
		end_case(test);
}

/* Up to 32 bytes from the first that differs, as KUnit shows them. */
static void dump(struct kunit *test, const char *text, const uint8_t *p, size_t from, size_t size)
{
	char hex[3 * 32 + 1] = "";

	for (size_t i = from, n = 0; i < size && n < 32; ++i, ++n)
		snprintf(hex + 3 * n, sizeof hex - 3 * n, "%02x ", p[i]);
	lockstep_kunit_log(test, "    %s ==", text);
	lockstep_kunit_log(test, "    at byte %zu: %s", from, hex);
}

void lockstep_kunit_memeq_failed(struct kunit *test, bool assertion, const char *file, int line,
				 const char *left_text, const char *right_text, const void *left, const void *right,
				 size_t size, const char *fmt, ...)
{
	const uint8_t *l = left, *r = right;
	size_t first = 0;
	va_list ap;

	while (first < size && l[first] == r[first])
		++first;
	failed(test, assertion, file, line);
	lockstep_kunit_log(test, "Expected %s == %s, but (%zu bytes)", left_text, right_text, size);
	dump(test, left_text, l, first, size);
	dump(test, right_text, r, first, size);
	va_start(ap, fmt); /* the test's own words, after KUnit's */
	vlog(test, fmt, ap);
	va_end(ap);
	if (assertion)
		end_case(test);
}

static void vskip(struct kunit *test, const char *fmt, va_list ap)
{
	test->status = KUNIT_SKIPPED;
	vsnprintf(test->status_comment, sizeof test->status_comment, fmt, ap);
}

void kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vskip(test, fmt, ap);
	va_end(ap);
}

void kunit_skip(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vskip(test, fmt, ap);
	va_end(ap);
	end_case(test);
}

int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx)
{
	if (test->action_count == KUNIT_MAX_ACTIONS)
		return -ENOMEM;
	test->actions[test->action_count].action = action;
	test->actions[test->action_count].ctx = ctx;
	++test->action_count;
	return 0;
}

int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action, void *ctx)
{
	const int rc = kunit_add_action(test, action, ctx);

	if (rc)
		action(ctx);
	return rc;
}

static void free_action(void *p)
{
	free(p);
}

void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	void *p = malloc(size ? size : 1);

	(void)gfp;
	return p && kunit_add_action_or_reset(test, free_action, p) == 0 ? p : NULL;
}

void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	void *p = kunit_kmalloc(test, size, gfp);

	if (p)
		memset(p, 0, size);
	return p;
}

/* vmalloc: a page that records the length, the pages, then a guard page. */
void *vmalloc(unsigned long size)
{
	const size_t pages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
	const size_t total = (pages + 2) * PAGE_SIZE;
	uint8_t *area = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (area == MAP_FAILED)
		return NULL;
	if (mprotect(area + total - PAGE_SIZE, PAGE_SIZE, PROT_NONE) != 0) {
		munmap(area, total);
		return NULL;
	}
	memcpy(area, &total, sizeof total);
	return area + PAGE_SIZE;
}

void vfree(const void *addr)
{
	size_t total;

	if (!addr)
		return;
	uint8_t *area = (uint8_t *)addr - PAGE_SIZE;
	memcpy(&total, area, sizeof total);
	munmap(area, total);
}

u64 ktime_get_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (u64)t.tv_sec * 1000000000u + (u64)t.tv_nsec;
}

/* ---- interrupts: a repeating SIGALRM as the hrtimer, then its BH work ---- */

static struct {
	bool (*func)(void *);
	void *state;
	struct lockstep_kunit_irq_counts *counts;
} irq;

/* The stack realigned on entry: QEMU 7.2's user-mode x86-64 signal frames
 * may leave it 8 bytes off the ABI's 16, and the hash's movaps faults. */
#ifdef __x86_64__
__attribute__((force_align_arg_pointer))
#endif
static void on_timer(int sig)
{
	(void)sig;
	for (int context = 1; context <= 2; ++context) {
		lockstep_kernel_in_interrupt = context;
		if (!irq.func(irq.state))
			irq.counts->failed[context] = true;
		++irq.counts->calls[context];
	}
	lockstep_kernel_in_interrupt = 0;
}

void lockstep_kunit_run_irq(bool (*func)(void *), int max_iterations, void *state,
			    struct lockstep_kunit_irq_counts *counts)
{
	struct sigaction sa = {.sa_handler = on_timer}, old_sa;
	struct itimerval every = {{0, 50}, {0, 50}}, off = {{0, 0}, {0, 0}}, old_timer;
	const u64 end = ktime_get_ns() + NSEC_PER_SEC;

	memset(counts, 0, sizeof *counts);
	irq.func = func;
	irq.state = state;
	irq.counts = counts;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old_sa);
	setitimer(ITIMER_REAL, &every, &old_timer);
	/* As the kernel's: up to max_iterations calls (each context at least
	 * once), or a second, whichever comes first. */
	for (;;) {
		if (!func(state))
			counts->failed[0] = true;
		++counts->calls[0];
		const int calls = counts->calls[0] + counts->calls[1] + counts->calls[2];
		if ((calls >= max_iterations && counts->calls[1] > 0) || ktime_get_ns() > end)
			break;
	}
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old_sa, NULL);
	setitimer(ITIMER_REAL, &old_timer, NULL);
}

/* ---- the executor ---- */

static int outcome(enum kunit_status s)
{
	return s == KUNIT_FAILURE ? LOCKSTEP_KUNIT_FAIL : s == KUNIT_SKIPPED ? LOCKSTEP_KUNIT_SKIP : LOCKSTEP_KUNIT_PASS;
}

/* Writes each line of text through line(), with `indent` before it. */
static void emit_lines(const char *text, const char *indent, void (*line)(void *, const char *), void *arg)
{
	char buf[1024];

	while (*text) {
		const char *end = strchr(text, '\n');
		const size_t n = end ? (size_t)(end - text) : strlen(text);

		snprintf(buf, sizeof buf, "%s%.*s", indent, (int)n, text);
		line(arg, buf);
		text += n + (end ? 1 : 0);
	}
}

/* One run of a case's function: init, the case, its actions, exit. */
static void run_once(struct kunit_suite *suite, struct kunit_case *c, struct kunit *test)
{
	jmp_buf end;

	test->end = &end;
	if (setjmp(end) == 0) {
		if (suite->init && suite->init(test) != 0)
			kunit_skip(test, "the suite's init failed");
		c->run_case(test);
	}
	while (test->action_count > 0) {
		--test->action_count;
		test->actions[test->action_count].action(test->actions[test->action_count].ctx);
	}
	if (suite->exit)
		suite->exit(test);
}

static void status_line(char *buf, size_t size, const char *indent, int n, const char *name,
			const struct kunit *test)
{
	snprintf(buf, size, "%s%s %d %s%s%s", indent, test->status == KUNIT_FAILURE ? "not ok" : "ok", n, name,
		 test->status == KUNIT_SKIPPED ? " # SKIP " : "",
		 test->status == KUNIT_SKIPPED ? test->status_comment : "");
}

static int run_suite(const struct lockstep_kunit_suite *s, int number, void (*line)(void *, const char *),
		     void (*result)(void *, const char *, int, const char *), void *arg)
{
	struct registered *r = s->opaque;
	struct kunit_suite *suite = r->suite;
	static struct kunit test; /* large: its log */
	char buf[1024];
	int cases = 0, counts[3] = {0, 0, 0};

	for (struct kunit_case *c = suite->test_cases; c->run_case; ++c)
		++cases;
	line(arg, "    KTAP version 1");
	snprintf(buf, sizeof buf, "    # Subtest: %s", suite->name);
	line(arg, buf);
	/* The kernel names the module: the file's stem, "sha256_kunit". */
	const char *base = strrchr(r->file, '/') ? strrchr(r->file, '/') + 1 : r->file;
	snprintf(buf, sizeof buf, "    # module: %.*s", (int)(strcspn(base, ".")), base);
	line(arg, buf);
	snprintf(buf, sizeof buf, "    1..%d", cases);
	line(arg, buf);

	const int init_rc = suite->suite_init ? suite->suite_init(suite) : 0;
	int n = 0;

	for (struct kunit_case *c = suite->test_cases; c->run_case; ++c) {
		memset(&test, 0, sizeof test);
		test.name = c->name;
		if (init_rc) {
			kunit_mark_skipped(&test, "the suite's suite_init failed (%d)", init_rc);
		} else if (!c->generate_params) {
			run_once(suite, c, &test);
		} else {
			/* A parameterised case: a subtest of its own, a line each. */
			char desc[KUNIT_PARAM_DESC_SIZE];
			struct kunit p;
			int params = 0, pcounts[3] = {0, 0, 0};

			line(arg, "        KTAP version 1");
			snprintf(buf, sizeof buf, "        # Subtest: %s", c->name);
			line(arg, buf);
			desc[0] = '\0';
			for (const void *v = c->generate_params(&test, NULL, desc); v;
			     v = c->generate_params(&test, v, desc)) {
				memset(&p, 0, sizeof p);
				p.name = c->name;
				p.param_value = v;
				p.param_index = params++;
				if (!desc[0])
					snprintf(desc, sizeof desc, "param-%d", p.param_index);
				run_once(suite, c, &p);
				emit_lines(p.log, "        ", line, arg);
				status_line(buf, sizeof buf, "        ", params, desc, &p);
				line(arg, buf);
				++pcounts[outcome(p.status)];
				if (p.status == KUNIT_FAILURE) {
					test.status = KUNIT_FAILURE;
					lockstep_kunit_log(&test, "# %s: parameter %s failed:", c->name, desc);
					lockstep_kunit_log(&test, "%s", p.log);
				}
				desc[0] = '\0';
			}
			snprintf(buf, sizeof buf, "    # %s: pass:%d fail:%d skip:%d total:%d", c->name, pcounts[0],
				 pcounts[1], pcounts[2], params);
			line(arg, buf);
			if (params > 0 && pcounts[2] == params)
				kunit_mark_skipped(&test, "every parameter skipped");
		}
		++n;
		emit_lines(test.log, "    ", line, arg);
		status_line(buf, sizeof buf, "    ", n, c->name, &test);
		line(arg, buf);
		++counts[outcome(test.status)];
		result(arg, c->name, outcome(test.status),
		       test.status == KUNIT_SKIPPED ? test.status_comment : test.log);
	}
	if (!init_rc && suite->suite_exit)
		suite->suite_exit(suite);

	const bool any_failed = counts[1] > 0 || init_rc;
	const bool all_skipped = counts[2] == cases && cases > 0;

	snprintf(buf, sizeof buf, "# %s: pass:%d fail:%d skip:%d total:%d", suite->name, counts[0], counts[1],
		 counts[2], cases);
	line(arg, buf);
	snprintf(buf, sizeof buf, "# Totals: pass:%d fail:%d skip:%d total:%d", counts[0], counts[1], counts[2], cases);
	line(arg, buf);
	snprintf(buf, sizeof buf, "%s %d %s%s", any_failed ? "not ok" : "ok", number, suite->name,
		 all_skipped && !any_failed ? " # SKIP" : "");
	line(arg, buf);
	return any_failed ? LOCKSTEP_KUNIT_FAIL : all_skipped ? LOCKSTEP_KUNIT_SKIP : LOCKSTEP_KUNIT_PASS;
}
