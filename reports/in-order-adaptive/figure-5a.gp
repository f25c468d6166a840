set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'reports/in-order-adaptive/figure-5a.svg'
set title 'Figure 5a: uniform, 16 switches, 256-byte packets'
set xlabel 'accepted traffic (bytes/ns/switch)'
set ylabel 'average latency (ns)'
set grid
set key top left
set logscale y
plot 'reports/in-order-adaptive/figure-5a.dat' index 0 with linespoints title 'DET', 'reports/in-order-adaptive/figure-5a.dat' index 1 with linespoints title 'ADAP'
