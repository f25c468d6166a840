set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'reports/in-order-adaptive/figure-6b.svg'
set title 'Figure 6b: bit-reversal, 64 switches, 256-byte packets'
set xlabel 'accepted traffic (bytes/ns/switch)'
set ylabel 'average latency (ns)'
set grid
set key top left
set logscale y
plot 'reports/in-order-adaptive/figure-6b.dat' index 0 with linespoints title 'DET', 'reports/in-order-adaptive/figure-6b.dat' index 1 with linespoints title 'ADAP', 'reports/in-order-adaptive/figure-6b.dat' index 2 with linespoints title 'Adap_32B', 'reports/in-order-adaptive/figure-6b.dat' index 3 with linespoints title 'Adap_128B', 'reports/in-order-adaptive/figure-6b.dat' index 4 with linespoints title 'Adap_1KB', 'reports/in-order-adaptive/figure-6b.dat' index 5 with linespoints title 'Adap_4KB', 'reports/in-order-adaptive/figure-6b.dat' index 6 with linespoints title 'Adap_16KB'
