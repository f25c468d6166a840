set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'reports/voqsw/figure-11a.svg'
set title 'Figure 11a: 4 SLs and 4 VLs, uniform, 8 switches'
set xlabel 'accepted traffic (bytes/ns/switch)'
set ylabel 'average latency (ns)'
set grid
set key top left
set logscale y
plot 'reports/voqsw/figure-11a.dat' index 0 with linespoints title '8VN', 'reports/voqsw/figure-11a.dat' index 1 with linespoints title 'VOQ-8SL-ext', 'reports/voqsw/figure-11a.dat' index 2 with linespoints title 'VOQ-8SL', 'reports/voqsw/figure-11a.dat' index 3 with linespoints title 'VOQ-4SL4VL'
