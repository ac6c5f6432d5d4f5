// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the test initramfs: mount the pseudo filesystems, run every
 * installed kselftest with the timeout of its collection's "settings" file
 * (45 s without one), as kselftest's runner.sh does, write their TAP to
 * /dev/hvc0 as one KTAP document, then power the machine off. With
 * "ksft_only=A:B,C:D" on the kernel command line, which the kernel passes on
 * in the environment, only the kselftests named there run.
 *
 * Each test's own TAP is nested, indented by four spaces, under one result
 * line per test, so that "kunit.py parse" reads subtests and totals alike.
 * Progress goes to the console, next to the kernel log.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KSFT_DIR	"/kselftest"
#define KSFT_LIST	KSFT_DIR "/kselftest-list.txt"
#define TAP_DEVICE	"/dev/hvc0"
#define MAX_TESTS	64
#define DEFAULT_TIMEOUT_S	45	/* runner.sh's, for a collection without settings */
#define REAP_TIMEOUT_S	10	/* for a killed test to go */

static FILE *tap;

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("init: ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
}

static void mount_or_say(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) && errno != EBUSY)
		say("mount %s on %s: %s", type, dir, strerror(errno));
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The "timeout=" of @collection's settings file, or runner.sh's default. */
static unsigned int test_timeout(const char *collection)
{
	unsigned int timeout = DEFAULT_TIMEOUT_S;
	char path[256], line[128];
	FILE *f;

	if (snprintf(path, sizeof(path), KSFT_DIR "/%s/settings", collection) >=
	    (int)sizeof(path))
		return timeout;
	f = fopen(path, "r");
	if (!f)
		return timeout;
	while (fgets(line, sizeof(line), f))
		sscanf(line, "timeout=%u", &timeout);
	fclose(f);
	return timeout;
}

/* Whether "collection:name" is to run, as ksft_only says. */
static int selected(const char *test)
{
	const char *only = getenv("ksft_only"), *p;
	size_t len = strlen(test);

	if (!only)
		return 1;
	for (p = only; (p = strstr(p, test)); p += len) {
		if ((p == only || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return 1;
	}
	return 0;
}

static pid_t test_pid;
static volatile sig_atomic_t timed_out;

/*
 * Kill the test and every process it started, in its process group; again
 * every second, so that a read that was not blocked when the first alarm
 * came is interrupted by the next.
 */
static void kill_test(int sig)
{
	(void)sig;
	timed_out = 1;
	kill(-test_pid, SIGKILL);
	alarm(1);
}

/* Reap the killed test, unless it is stuck in the kernel: 1 if reaped. */
static int reap_killed(int *status)
{
	int i;

	for (i = 0; i < REAP_TIMEOUT_S * 10; i++) {
		if (waitpid(test_pid, status, WNOHANG) == test_pid)
			return 1;
		usleep(100000);
	}
	return 0;
}

/*
 * Run one test in its own directory and copy its output, indented, to the
 * TAP stream. The test's own version line is dropped: ours, printed before
 * the "# Subtest:" line, stands for it. Returns the test's exit status, or
 * -1 if it was killed after @timeout seconds, with the processes it started:
 * output is read no longer then, whoever still holds the pipe.
 */
static int run_test(const char *collection, const char *name, unsigned int timeout)
{
	struct sigaction sa = { .sa_handler = kill_test };
	char *line = NULL;
	size_t size = 0;
	int pipefd[2], status = 0;
	ssize_t len;
	FILE *out;

	if (pipe(pipefd))
		return -errno;

	test_pid = fork();
	if (test_pid == 0) {
		setpgid(0, 0);
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		close(pipefd[1]);
		if (chdir(KSFT_DIR) == 0 && chdir(collection) == 0)
			execl(name, name, (char *)NULL);
		fprintf(stderr, "exec %s/%s: %s\n", collection, name, strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	setpgid(test_pid, test_pid);

	timed_out = 0;
	sigaction(SIGALRM, &sa, NULL);
	alarm(timeout);
	out = fdopen(pipefd[0], "r");
	/* SIGALRM, without SA_RESTART, ends a read with EINTR. */
	while (!timed_out && (len = getline(&line, &size, out)) > 0) {
		if (!strncmp(line, "TAP version ", 12) || !strncmp(line, "KTAP version ", 13))
			continue;
		fprintf(tap, "    %s%s", line, line[len - 1] == '\n' ? "" : "\n");
	}
	fclose(out);
	free(line);
	if (!timed_out && waitpid(test_pid, &status, 0) == test_pid) {
		alarm(0);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	/* Timed out while reading, or while waiting for the test to exit. */
	alarm(0);
	if (!reap_killed(&status))
		say("%s:%s survives SIGKILL: stuck in the kernel", collection, name);
	return -1;
}

int main(void)
{
	char tests[MAX_TESTS][128];
	int count = 0, i;
	FILE *list;

	mount_or_say("proc", "/proc");
	mount_or_say("sysfs", "/sys");
	mount_or_say("devtmpfs", "/dev");
	mount_or_say("debugfs", "/sys/kernel/debug");
	mount_or_say("tracefs", "/sys/kernel/tracing");

	tap = fopen(TAP_DEVICE, "w");
	if (!tap) {
		say("cannot open %s (%s): no test results", TAP_DEVICE, strerror(errno));
		goto out;
	}

	list = fopen(KSFT_LIST, "r");
	if (!list) {
		say("cannot open %s: %s", KSFT_LIST, strerror(errno));
		goto out;
	}
	/* One "collection:test" per line */
	while (count < MAX_TESTS && fgets(tests[count], sizeof(tests[0]), list)) {
		tests[count][strcspn(tests[count], "\n")] = '\0';
		if (strchr(tests[count], ':') && selected(tests[count]))
			count++;
	}
	fclose(list);

	fprintf(tap, "KTAP version 1\n1..%d\n", count);
	for (i = 0; i < count; i++) {
		char *collection = tests[i], *name = strchr(tests[i], ':');
		double start = now();
		unsigned int timeout;
		int ret;

		*name++ = '\0';
		timeout = test_timeout(collection);
		say("running %s:%s (timeout %u s)", collection, name, timeout);
		fprintf(tap, "    KTAP version 1\n    # Subtest: %s:%s\n", collection, name);
		fflush(tap);
		ret = run_test(collection, name, timeout);
		if (ret == -1)
			say("%s:%s timed out after %u s", collection, name, timeout);
		else
			say("%s:%s exited %d after %.1f s", collection, name, ret, now() - start);
		/* kselftest's exit code 4 is KSFT_SKIP */
		fprintf(tap, "%s %d %s:%s%s\n", ret == 0 || ret == 4 ? "ok" : "not ok",
			i + 1, collection, name, ret == 4 ? " # SKIP" : "");
		fflush(tap);
	}
	say("all tests done");
out:
	if (tap)
		fclose(tap);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
