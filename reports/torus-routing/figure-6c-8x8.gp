set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'reports/torus-routing/figure-6c-8x8.svg'
set title 'Figure 6c: 8x8 torus, 512-byte packets, uniform'
set xlabel 'accepted traffic (bytes/ns/switch)'
set ylabel 'average latency (ns)'
set grid
set key top left
set logscale y
plot 'reports/torus-routing/figure-6c-8x8.dat' index 0 with linespoints title 'e-cube', 'reports/torus-routing/figure-6c-8x8.dat' index 1 with linespoints title 'DFS_1VL', 'reports/torus-routing/figure-6c-8x8.dat' index 2 with linespoints title 'DFS_2VL', 'reports/torus-routing/figure-6c-8x8.dat' index 3 with linespoints title 'FX_1VL', 'reports/torus-routing/figure-6c-8x8.dat' index 4 with linespoints title 'FX_2VL'
