set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'study_report_test/figure-7a-3x3x3.svg'
set title 'Figure 7a: 3x3x3 torus, 512-byte packets, uniform'
set xlabel 'accepted traffic (bytes/ns/switch)'
set ylabel 'average latency (ns)'
set grid
set key top left
set logscale y
plot 
