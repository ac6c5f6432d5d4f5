# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the scripts in this directory; sourced, not run.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$TOP/build}
SHARED=$(realpath -m "${SHARED_DIR:-$TOP/../shared}")
PINNED_TARBALL=$SHARED/kernel/linux-source-7.2_7.2.13-1.tar.xz

# The one identity every commit of the series is made with.
PROJECT_NAME="dma-buf ownership series"
PROJECT_EMAIL="dmabuf-ownership@lists.invalid"
# The b4 change-id of the series: the same for every revision sent.
SERIES_CHANGE_ID=20261204-dmabuf-ownership-7db899659929
# The branch the series is applied on, in our tree and in a user's tree.
SERIES_BRANCH=dmabuf-ownership
# Extra subject prefix of the mails: RFC until the design is agreed on,
# then empty. git puts it before PATCH ([RFC PATCH 00/31]), b4 0.12
# after it ([PATCH RFC 00/31]); both mark an RFC for lore and patchwork.
SERIES_PREFIX=RFC
# Who is Cc'd beyond get_maintainer.pl: the authors of the earlier
# proposals and objections the cover letter answers, one "Name <address>"
# a line; # starts a comment.
SERIES_EXTRA_CC=$TOP/Documentation/extra-cc.txt
# Results that depend only on what they are keyed by, such as the warnings
# of the pinned base: kept across clones, like ccache's objects.
CACHE=${DMABUF_OWNERSHIP_CACHE:-${XDG_CACHE_HOME:-${HOME:-$BUILD}/.cache}/dmabuf-ownership}

export ARCH=arm64
export CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
JOBS=${JOBS:-$(($(nproc) + 1))}

_stage_name=
_stage_start=0

die() {
	echo "error: $*" >&2
	exit 1
}

# Progress goes to stderr so that stdout can carry a script's result.
log() {
	echo "  $*" >&2
}

# stage NAME: announce a stage; the previous one is closed with its duration.
stage() {
	stage_done
	_stage_name=$1
	_stage_start=$SECONDS
	echo "==> $_stage_name" >&2
}

stage_done() {
	[ -n "$_stage_name" ] || return 0
	echo "<== $_stage_name ($((SECONDS - _stage_start)) s)" >&2
	_stage_name=
}

# git_project DIR ARGS...: git in DIR with the project's identity.
git_project() {
	local dir=$1
	shift
	git -C "$dir" -c user.name="$PROJECT_NAME" -c user.email="$PROJECT_EMAIL" "$@"
}

# series_fixes: the fixes of pre-existing bugs the series starts with, the
# patches before the first one without a Fixes: tag, one per line.
series_fixes() {
	local p
	for p in $(series_patches); do
		grep -q '^Fixes: ' "$p" || break
		echo "$p"
	done
}

# series_baseline: the patches before the optional layer at the end of the
# series, which extends the DMA API, starting with the first patch to touch
# include/linux/dma-mapping.h: what works with the DMA API as it is.
series_baseline() {
	local p
	for p in $(series_patches); do
		grep -q '^diff --git a/include/linux/dma-mapping.h ' "$p" && break
		echo "$p"
	done
}

# series_patches: the patch files named by ./series, in order, one per line.
series_patches() {
	local p
	[ -f "$TOP/series" ] || die "$TOP/series is missing"
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		[ -f "$TOP/patches/$p" ] || die "series names patches/$p, which does not exist"
		echo "$TOP/patches/$p"
	done <"$TOP/series"
}

# series_fingerprint: a hash of the series as it stands in this repository.
series_fingerprint() {
	{
		cat "$TOP/series"
		series_patches | xargs -r cat
	} | sha256sum | cut -d' ' -f1
}

# tree_id SRC: a short name for a kernel source tree, used to name build dirs.
tree_id() {
	case "$(realpath "$1")" in
	"$BUILD"/trees/*) basename "$1" ;;
	*) echo "user-$(realpath "$1" | sha1sum | cut -c1-8)" ;;
	esac
}

# export_series TREE BASE OUTDIR [ARGS...]: write the commits BASE..HEAD of
# TREE to OUTDIR as patches, with every knob that changes format-patch output
# pinned, so that the same commits always give the same bytes.
export_series() {
	local tree=$1 base=$2 out=$3
	shift 3
	git -C "$tree" \
		-c core.abbrev=12 -c diff.algorithm=myers -c diff.renames=true \
		-c diff.noprefix=false -c diff.mnemonicPrefix=false \
		-c format.subjectPrefix=PATCH -c format.useAutoBase=false \
		-c format.coverLetter=false -c format.signOff=false \
		format-patch --quiet --no-numbered --zero-commit --no-signature \
		--no-thread --no-attach "$@" -o "$out" "$base..HEAD"
	# Empty context lines as empty lines, as git apply reads them: checkpatch
	# run on a patch that git tracks checks it as a file, and would flag the
	# lone space as trailing whitespace.
	find "$out" -name '*.patch' -exec sed -i 's/^ $//' {} +
}

# worktree TREE NAME COMMIT: a work tree of TREE beside it under build/trees,
# named after it and NAME, detached at COMMIT; made on first use. Prints it.
worktree() {
	local wt
	wt=$BUILD/trees/$(tree_id "$1")-$2
	if [ -d "$wt" ]; then
		git -C "$wt" checkout -q --detach "$3"
	else
		mkdir -p "$BUILD/trees"
		git -C "$1" worktree add -q --detach "$wt" "$3" >&2
	fi
	echo "$wt"
}

# new_findings BASE_LOG BASE_ROOT LOG ROOT: the findings (warnings, one per
# line) in LOG that BASE_LOG does not have, each as many times as LOG has it
# more often. Paths are taken relative to each tree's ROOT (absolute or as
# "../../ROOT-basename/" from an out dir), and line and
# column numbers are ignored: the series moves code around.
new_findings() {
	LC_ALL=C comm -13 <(_findings "$1" "$2") <(_findings "$3" "$4")
}

# base_findings NAME LOG ROOT KEY... -- CMD...: the findings of the base tree
# ROOT in LOG. CMD writes them to LOG the first time; they are kept in $CACHE
# under NAME and a hash of the KEYs, of the calling script and of kmake, and
# reused while those stay the same. The KEYs name every other input the
# findings depend on: tree, configuration, tool versions.
base_findings() {
	local name=$1 log=$2 root=$3 key cached tmp
	shift 3
	key=$({
		basename "$root"
		sha256sum <"$0"
		declare -f kmake
		while [ "$1" != -- ]; do
			printf '%s\n' "$1"
			shift
		done
	} | sha256sum | cut -c1-16)
	while [ "$1" != -- ]; do shift; done
	shift
	cached=$CACHE/$name-$key.log
	if [ -f "$cached" ]; then
		log "$name: the base's findings, cached in $cached"
		cp "$cached" "$log"
		return
	fi
	"$@"
	mkdir -p "$CACHE"
	tmp=$(mktemp "$cached.XXXXXX")
	cp "$log" "$tmp"
	mv "$tmp" "$cached"
}

_findings() {
	sed -E -e "s#([^ :]*/)?$(basename "$2")/##g" -e 's#:[0-9]+(:[0-9]+)?([: ]|$)#\2#g' "$1" | LC_ALL=C sort
}

# config_fragments SRC VARIANT: the fragments a kernel variant is made of.
# The test's own fragment from the tree comes first, ours after it.
config_fragments() {
	local src=$1 variant=$2
	echo "$src/tools/testing/selftests/dmabuf-heaps/config"
	echo "$TOP/kernel-config/qemu-virt.config"
	echo "$TOP/kernel-config/dma-buf.config"
	case "$variant" in
	normal) ;;
	debug) echo "$TOP/kernel-config/debug.config" ;;
	*) die "unknown kernel variant '$variant' (normal or debug)" ;;
	esac
}

# out_dir SRC VARIANT: where the kernel of SRC in VARIANT is built.
out_dir() {
	echo "$BUILD/out/$(tree_id "$1")-$2"
}

# build_locked CMD...: run CMD as the only kernel build under $BUILD at a
# time (a second build on the same cores only makes both slower).
build_locked() {
	mkdir -p "$BUILD"
	(
		flock -n 9 || {
			log "waiting for another kernel build to finish"
			flock 9
		}
		"$@"
	) 9>"$BUILD/.kernel-build.lock"
}

# kmake SRC OUT ARGS...: make in the kernel tree SRC, built in OUT. Paths
# under build/ are hashed relative to it, so that ccache hits across clones.
# One kernel build runs at a time on this machine; others wait for it.
# W=1 would run kernel-doc on every C file compiled, a Python process each
# that ccache cannot skip, and a third of a build from scratch: the files
# the series changes are checked by scripts/kerneldoc-series instead, at
# every patch and at the end.
kmake() {
	local src=$1 out=$2
	shift 2
	CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD} build_locked \
		make -C "$src" O="$out" CC="ccache ${CROSS_COMPILE}gcc" HOSTCC="ccache gcc" \
		cmd_checkdoc= -j"$JOBS" "$@"
}

# log_dir SRC VARIANT: where the logs of building and booting it are kept.
log_dir() {
	echo "$BUILD/logs/$(tree_id "$1")-$2"
}

# check_dma_buf_warnings LOG: fail on compiler warnings in the dma-buf code,
# which the series touches, in a build log.
check_dma_buf_warnings() {
	local paths='(drivers/dma-buf/|include/linux/dma-(buf|fence|resv|heap)|include/uapi/linux/dma-(buf|heap))'

	if grep -E "$paths[^: ]*:[0-9]+(:[0-9]+)?: warning:" "$1" >&2; then
		die "W=1 warnings in dma-buf code (above, from $1); fix them"
	fi
}
