set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'reports/voqsw/figure-9b.svg'
set title 'Figure 9b: uniform, 32 switches (full VOQ needs 108 SLs: not simulable with a 4-bit SL)'
set xlabel 'accepted traffic (bytes/ns/switch)'
set ylabel 'average latency (ns)'
set grid
set key top left
set logscale y
plot 'reports/voqsw/figure-9b.dat' index 0 with linespoints title '8VN', 'reports/voqsw/figure-9b.dat' index 1 with linespoints title 'VOQ-8SL-ext', 'reports/voqsw/figure-9b.dat' index 2 with linespoints title 'VOQ-8SL'
