set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'reports/in-order-adaptive/figure-5-mbs.svg'
set title 'Figure 5b, d, f, h: largest rearrange buffer needed (Adap_16KB)'
set xlabel 'accepted traffic (bytes/ns/switch)'
set ylabel 'MBS (bytes)'
set grid
set key top left
plot 'reports/in-order-adaptive/figure-5-mbs.dat' index 0 with linespoints title '16sw uniform', 'reports/in-order-adaptive/figure-5-mbs.dat' index 1 with linespoints title '64sw uniform', 'reports/in-order-adaptive/figure-5-mbs.dat' index 2 with linespoints title '16sw bit-reversal', 'reports/in-order-adaptive/figure-5-mbs.dat' index 3 with linespoints title '64sw bit-reversal'
