set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'reports/in-order-adaptive/figure-8.svg'
set title 'Figure 8: torus, workload disk-t: execution time vs MTU'
set xlabel 'MTU (bytes)'
set ylabel 'execution time (ms)'
set grid
set key top right
plot 'reports/in-order-adaptive/figure-8.dat' index 0 with linespoints title 'DET', 'reports/in-order-adaptive/figure-8.dat' index 1 with linespoints title 'ADAP-OOO', 'reports/in-order-adaptive/figure-8.dat' index 2 with linespoints title 'LI-dyn64K', 'reports/in-order-adaptive/figure-8.dat' index 3 with linespoints title 'LI-dyn128K', 'reports/in-order-adaptive/figure-8.dat' index 4 with linespoints title 'LI-dyn256K', 'reports/in-order-adaptive/figure-8.dat' index 5 with linespoints title 'LI-dyn2M'
