module iobench/methods/go

go 1.18
