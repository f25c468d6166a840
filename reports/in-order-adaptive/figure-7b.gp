set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'reports/in-order-adaptive/figure-7b.svg'
set title 'Figure 7b: torus, disk-t, LI-2K: most rearrange memory held at once'
set xlabel 'destination host'
set ylabel 'bytes held at once (MMS)'
set grid
set key top right
plot 'reports/in-order-adaptive/figure-7b.dat' index 0 with linespoints title 'MMS per NIC'
