# Figure 5a: uniform, 16 switches, 256-byte packets
# Replot from any folder: gnuplot path/to/figure-5a.gp (it reads figure-5a.dat and writes figure-5a.svg beside itself).
if (exists("ARG0") && strlen(ARG0) > 0) { d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }; if (i > 0) { cd d[1:i] } }
set terminal svg size 800,560 dynamic font 'sans,12' noenhanced background rgb 'white'
set output 'figure-5a.svg'
set title "Figure 5a: uniform, 16 switches, 256-byte packets\nirregular:16:seed=1:hosts=4:ports=8, uniform, 256-byte packets"
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
plot 'figure-5a.dat' index 0 using 1:2 with lines lt 1 notitle, \
     '' index 0 using 1:($3 > 0 ? NaN : $2) with linespoints lt 1 pt 7 title 'DET', \
     '' index 0 using 1:($3 > 0 ? $2 : NaN) with points lt 1 pt 6 notitle, \
     '' index 1 using 1:2 with lines lt 2 notitle, \
     '' index 1 using 1:($3 > 0 ? NaN : $2) with linespoints lt 2 pt 5 title 'ADAP', \
     '' index 1 using 1:($3 > 0 ? $2 : NaN) with points lt 2 pt 4 notitle, \
     NaN with points lc rgb 'black' pt 6 ps 1.2 title 'open marker: saturated'
