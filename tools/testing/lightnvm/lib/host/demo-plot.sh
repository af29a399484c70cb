# SPDX-License-Identifier: GPL-2.0
#
# The plot of `make demo`, sourced by check (bash): the overwrite phase's
# samples of vm/demo.sh as a gnuplot PNG.

# demo_plot LOG OUTDIR: the overwrite phase's samples ("@@LNVM PLOT
# <uptime> <user> <media> <moved>" console lines, 4 KiB sectors) as write
# throughput (MiB/s) and write amplification (media / user sectors) per
# interval, plotted by gnuplot into OUTDIR/demo.png
demo_plot() {
	local log=$1 out=$2 n
	mkdir -p "$out"
	grep -aoE '@@LNVM PLOT [0-9.]+ [0-9]+ [0-9]+ [0-9]+$' "$log" |
		awk '{ t = $3; u = $4; m = $5
		       if (NR > 1 && t > pt && u > pu)
			       printf "%.1f %.2f %.3f\n", t - t0, (u - pu) * 4096 / 1048576 / (t - pt), (m - pm) / (u - pu)
		       if (NR == 1) t0 = t
		       pt = t; pu = u; pm = m }' >"$out/demo.dat"
	n=$(wc -l <"$out/demo.dat")
	if [ "$n" -lt 2 ]; then
		echo "demo: only $n throughput samples in the console log, no plot"
		return 1
	fi
	gnuplot <<-EOT || return 1
	set terminal pngcairo size 800,480
	set output "$out/demo.png"
	set title "rrpc1: random 4 KiB overwrites of a full target (GC at work)"
	set xlabel "seconds into the overwrite phase"
	set ylabel "user write throughput (MiB/s)"
	set y2label "write amplification (media / user sectors)"
	set yrange [0:*]
	set y2range [0:*]
	set ytics nomirror
	set y2tics
	set grid
	set key top right
	plot "$out/demo.dat" using 1:2 with linespoints axes x1y1 title "throughput", \
	     "$out/demo.dat" using 1:3 with linespoints axes x1y2 title "write amplification"
	EOT
	echo "demo: plot of throughput and write amplification ($n samples): $out/demo.png"
}
