set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'study_report_test/figure-6c-8x8.svg'
set title 'Figure 6c: 8x8 torus, 512-byte packets, uniform'
set xlabel 'accepted traffic (bytes/ns/switch)'
set ylabel 'average latency (ns)'
set grid
set key top left
set logscale y
plot 
