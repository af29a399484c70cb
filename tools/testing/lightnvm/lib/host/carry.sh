# SPDX-License-Identifier: GPL-2.0
#
# The console carry-over of a multi-boot group, sourced by check (bash):
# console lines of a boot that match the group's CARRY_RE are handed to
# the group's later boots (DIR/carry.log, /lnvm/carry.log in the guest,
# read by _carried).

# carry_reset DIR: a new scenario carries nothing yet
carry_reset() {
	rm -f "$1/carry.log"
}

# carry_over LOG DIR BOOT RE: the lines of LOG for the next boots: complete
# lines only (a cut may leave the last one unfinished), matching RE exactly
carry_over() {
	local log=$1 dir=$2 k=$3 re=$4
	if [ -n "$(tail -c 1 "$log")" ]; then
		head -n -1 "$log"
	else
		cat "$log"
	fi | grep -aoE "$re" >"$dir/carry.new"
	cat "$dir/carry.new" >>"$dir/carry.log"
	echo "        $(grep -c . "$dir/carry.new") console lines of boot $k carried to the next boots"
}
