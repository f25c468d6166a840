# Latency vs accepted traffic, every variant
# Replot from any folder: gnuplot path/to/latency-uniform.gp (it reads latency-uniform.dat and writes latency-uniform.svg beside itself).
if (exists("ARG0") && strlen(ARG0) > 0) { d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }; if (i > 0) { cd d[1:i] } }
set terminal svg size 800,560 dynamic font 'sans,12' noenhanced background rgb 'white'
set output 'latency-uniform.svg'
set title "Latency vs accepted traffic, every variant\n4x4, uniform, 512-byte packets"
set xlabel 'accepted traffic (bytes/ns/switch)'
set ylabel 'average latency (ns)'
set grid
set key top left
set logscale y
set linetype 1 lc rgb '#0072b2' lw 2 ps 1.2
set linetype 2 lc rgb '#d55e00' lw 2 ps 1.2
set linetype 3 lc rgb '#009e73' lw 2 ps 1.2
set linetype 4 lc rgb '#7b3294' lw 2 ps 1.2
set linetype 5 lc rgb '#000000' lw 2 ps 1.2
set linetype 6 lc rgb '#a6611a' lw 2 ps 1.2
set linetype 7 lc rgb '#c51b7d' lw 2 ps 1.2
set linetype 8 lc rgb '#5e5e5e' lw 2 ps 1.2
set linetype cycle 8
plot 'latency-uniform.dat' index 0 using 1:2 with lines lt 1 notitle, \
     '' index 0 using 1:($3 > 0 ? NaN : $2) with linespoints lt 1 pt 7 title 'baseline', \
     '' index 0 using 1:($3 > 0 ? $2 : NaN) with points lt 1 pt 6 notitle, \
     '' index 1 using 1:2 with lines lt 2 notitle, \
     '' index 1 using 1:($3 > 0 ? NaN : $2) with linespoints lt 2 pt 5 title 'buffers-1k', \
     '' index 1 using 1:($3 > 0 ? $2 : NaN) with points lt 2 pt 4 notitle, \
     '' index 2 using 1:2 with lines lt 3 notitle, \
     '' index 2 using 1:($3 > 0 ? NaN : $2) with linespoints lt 3 pt 9 title 'buffers-8k', \
     '' index 2 using 1:($3 > 0 ? $2 : NaN) with points lt 3 pt 8 notitle, \
     '' index 3 using 1:2 with lines lt 4 notitle, \
     '' index 3 using 1:($3 > 0 ? NaN : $2) with linespoints lt 4 pt 11 title 'speedup-2', \
     '' index 3 using 1:($3 > 0 ? $2 : NaN) with points lt 4 pt 10 notitle, \
     '' index 4 using 1:2 with lines lt 5 notitle, \
     '' index 4 using 1:($3 > 0 ? NaN : $2) with linespoints lt 5 pt 13 title 'output-buffers', \
     '' index 4 using 1:($3 > 0 ? $2 : NaN) with points lt 5 pt 12 notitle, \
     '' index 5 using 1:2 with lines lt 6 notitle, \
     '' index 5 using 1:($3 > 0 ? NaN : $2) with linespoints lt 6 pt 15 title 'speedup-2-output-buffers', \
     '' index 5 using 1:($3 > 0 ? $2 : NaN) with points lt 6 pt 14 notitle, \
     '' index 6 using 1:2 with lines lt 7 notitle, \
     '' index 6 using 1:($3 > 0 ? NaN : $2) with linespoints lt 7 pt 7 title 'fifo-arbiter', \
     '' index 6 using 1:($3 > 0 ? $2 : NaN) with points lt 7 pt 6 notitle, \
     '' index 7 using 1:2 with lines lt 8 notitle, \
     '' index 7 using 1:($3 > 0 ? NaN : $2) with linespoints lt 8 pt 5 title 'vlarb-vl1-first', \
     '' index 7 using 1:($3 > 0 ? $2 : NaN) with points lt 8 pt 4 notitle, \
     '' index 8 using 1:2 with lines lt 1 notitle, \
     '' index 8 using 1:($3 > 0 ? NaN : $2) with linespoints lt 1 pt 9 title 'rtl-arbiter', \
     '' index 8 using 1:($3 > 0 ? $2 : NaN) with points lt 1 pt 8 notitle, \
     NaN with points lc rgb 'black' pt 6 ps 1.2 title 'open marker: saturated'
