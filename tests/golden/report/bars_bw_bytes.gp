# drawn by nasbench report: gnuplot bars_bw_bytes.gp writes bars_bw_bytes.png and bars_bw_bytes.svg
set terminal pngcairo size 900,512 noenhanced font "sans,12"
set output 'bars_bw_bytes.png'
set title 'Throughput per workload (median, min-max)' noenhanced
set ylabel 'MB/s (log scale)'
set datafile missing "?"
set grid ytics
set key below horizontal noenhanced
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set xtics noenhanced nomirror scale 0
set logscale y
$data << EOD
"bigfile" 346 343 350 220 220 220
"rand4k-read" 2.05 2 2.1 1.8 1.8 1.8
EOD
plot $data using 2:3:4:xtic(1) lt 1 title 'platform=bare', $data using 5:6:7:xtic(1) lt 2 title 'platform=xen'
set terminal svg size 900,512 noenhanced font "sans,12" background "white"
set output 'bars_bw_bytes.svg'
replot
