set terminal svg size 800,560 dynamic font 'sans,12' noenhanced
set output 'figure-5.svg'
set title 'Figure 5: throughput under random link faults (TFTR, uniform, 256 B)'
set xlabel 'faulty switch-to-switch cables'
set ylabel 'throughput (bytes/ns/switch)'
set grid
set key bottom left
set xrange [-0.5:6.5]
set yrange [0:*]
plot 'figure-5.dat' index 0 using 1:2 with points pt 7 ps 1.5 title 'paper 4x4 (text: 6 faults)', 'figure-5.dat' index 1 using 1:2 with points pt 7 ps 1.5 title 'paper 8x8 (text: 6 faults)', 'figure-5.dat' index 2 using 1:2:3:4 with yerrorlines title '4x4 tftr', 'figure-5.dat' index 3 using 1:2:3:4 with yerrorlines title '4x4 tftr-live', 'figure-5.dat' index 4 using 1:2:3:4 with yerrorlines title '4x4 tftr-rc', 'figure-5.dat' index 5 using 1:2:3:4 with yerrorlines title '4x4 tftr-routable', 'figure-5.dat' index 6 using 1:2:3:4 with yerrorlines title '4x4 tftr-xvl', 'figure-5.dat' index 7 using 1:2:3:4 with yerrorlines title '8x8 tftr', 'figure-5.dat' index 8 using 1:2:3:4 with yerrorlines title '8x8 tftr-xvl'
