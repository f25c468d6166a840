set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'reports/voqsw/figure-7.svg'
set title 'Figure 7: one hot-spot with 10/20/40/70% of the traffic, 8 switches'
set xlabel 'accepted traffic (bytes/ns/switch)'
set ylabel 'average latency (ns)'
set grid
set key top left
set logscale y
plot 'reports/voqsw/figure-7.dat' index 0 with linespoints title '8VN hs1-10', 'reports/voqsw/figure-7.dat' index 1 with linespoints title 'VOQ-8SL-ext hs1-10', 'reports/voqsw/figure-7.dat' index 2 with linespoints title 'VOQ-8SL hs1-10', 'reports/voqsw/figure-7.dat' index 3 with linespoints title '8VN hs1-20', 'reports/voqsw/figure-7.dat' index 4 with linespoints title 'VOQ-8SL-ext hs1-20', 'reports/voqsw/figure-7.dat' index 5 with linespoints title 'VOQ-8SL hs1-20', 'reports/voqsw/figure-7.dat' index 6 with linespoints title '8VN hs1-40', 'reports/voqsw/figure-7.dat' index 7 with linespoints title 'VOQ-8SL-ext hs1-40', 'reports/voqsw/figure-7.dat' index 8 with linespoints title 'VOQ-8SL hs1-40', 'reports/voqsw/figure-7.dat' index 9 with linespoints title '8VN hs1-70', 'reports/voqsw/figure-7.dat' index 10 with linespoints title 'VOQ-8SL-ext hs1-70', 'reports/voqsw/figure-7.dat' index 11 with linespoints title 'VOQ-8SL hs1-70'
